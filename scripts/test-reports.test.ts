import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readTestReports } from './test-reports.ts';

const dirs: string[] = [];
function reportsDir(files: Record<string, unknown>): string {
  const dir = mkdtempSync(join(tmpdir(), 'test-reports-'));
  dirs.push(dir);
  for (const [name, body] of Object.entries(files)) writeFileSync(join(dir, name), JSON.stringify(body));
  return dir;
}
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const e2eTest = (status: string, message?: string) => ({
  projectName: 'desktop',
  status,
  results: [message ? { error: { message } } : {}],
});

describe('readTestReports', () => {
  it('adds the counts of every report and names each failed test with the first line of its error', () => {
    const dir = reportsDir({
      'unit.json': {
        numPassedTests: 5,
        numFailedTests: 1,
        testResults: [
          {
            name: join(process.cwd(), 'src/a.test.ts'),
            assertionResults: [
              { fullName: 'a adds', status: 'passed', failureMessages: [] },
              { fullName: 'a subtracts', status: 'failed', failureMessages: ['AssertionError: 2 !== 3\n    at x'] },
            ],
          },
        ],
      },
      'e2e.json': {
        stats: { expected: 7, unexpected: 1, flaky: 1 },
        suites: [
          {
            title: 'leads.spec.ts',
            file: 'leads.spec.ts',
            specs: [{ title: 'passes', tests: [e2eTest('expected')] }],
            suites: [
              {
                title: 'the table',
                specs: [
                  { title: 'sorts', tests: [e2eTest('unexpected', '\u001b[31mError: timed out\u001b[39m\ncall log')] },
                  { title: 'filters', tests: [e2eTest('flaky', 'Error: once')] },
                ],
              },
            ],
          },
        ],
      },
    });
    expect(readTestReports(dir)).toEqual({
      passed: 12,
      failed: 3,
      failures: [
        '[unit] src/a.test.ts › a subtracts: AssertionError: 2 !== 3',
        '[desktop] leads.spec.ts › the table › sorts (unexpected): Error: timed out',
        '[desktop] leads.spec.ts › the table › filters (flaky): Error: once',
      ],
    });
  });

  it('counts nothing for a step that left no report', () => {
    expect(readTestReports(reportsDir({}))).toEqual({ passed: 0, failed: 0, failures: [] });
  });
});
