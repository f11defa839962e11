// Reads the JSON reports vitest and Playwright leave in .data/test-reports: the counts for npm test's
// summary line, and each failed test by name with the first line of its error, so the tail of a CI
// log says what failed without scrolling through its whole output.
import { existsSync, readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import * as z from 'zod';

const vitestReport = z.object({
  numPassedTests: z.number(),
  numFailedTests: z.number(),
  testResults: z
    .array(
      z.object({
        name: z.string(),
        assertionResults: z.array(
          z.object({ fullName: z.string(), status: z.string(), failureMessages: z.array(z.string()).nullish() }),
        ),
      }),
    )
    .default([]),
});
// Playwright's JSON report nests suites (file, describe) around specs; each spec's tests carry results.
interface PlaywrightSuite {
  title: string;
  file?: string;
  specs?: {
    title: string;
    tests: { projectName: string; status: string; results: { error?: { message?: string } }[] }[];
  }[];
  suites?: PlaywrightSuite[];
}
const playwrightSuite: z.ZodType<PlaywrightSuite> = z.lazy(() =>
  z.object({
    title: z.string(),
    file: z.string().optional(),
    specs: z
      .array(
        z.object({
          title: z.string(),
          tests: z.array(
            z.object({
              projectName: z.string(),
              status: z.string(),
              results: z.array(z.object({ error: z.object({ message: z.string().optional() }).optional() })),
            }),
          ),
        }),
      )
      .optional(),
    suites: z.array(playwrightSuite).optional(),
  }),
);
const playwrightReport = z.object({
  stats: z.object({ expected: z.number(), unexpected: z.number(), flaky: z.number() }),
  suites: z.array(playwrightSuite).default([]),
});

// The first line of an error, without colour codes, so the summary names the cause on one line.
function firstLine(message: string | undefined): string {
  const clean = stripVTControlCharacters(message ?? '').trim();
  return clean.split('\n')[0]?.slice(0, 300) ?? '';
}

function failedE2e(suites: PlaywrightSuite[], path: string[] = []): string[] {
  return suites.flatMap((suite) => {
    const here = suite.title ? [...path, suite.title] : path;
    const own = (suite.specs ?? []).flatMap((spec) =>
      spec.tests
        .filter((test) => test.status === 'unexpected' || test.status === 'flaky')
        .map((test) => {
          const error = test.results.find((result) => result.error)?.error?.message;
          return `[${test.projectName}] ${[...here, spec.title].join(' › ')} (${test.status}): ${firstLine(error)}`;
        }),
    );
    return [...own, ...failedE2e(suite.suites ?? [], here)];
  });
}

export interface TestReports {
  passed: number;
  failed: number;
  failures: string[];
}

export function readTestReports(dir: string): TestReports {
  const result: TestReports = { passed: 0, failed: 0, failures: [] };
  for (const project of ['unit', 'integration']) {
    const file = `${dir}/${project}.json`;
    if (!existsSync(file)) continue;
    const report = vitestReport.parse(JSON.parse(readFileSync(file, 'utf8')));
    result.passed += report.numPassedTests;
    result.failed += report.numFailedTests;
    for (const testFile of report.testResults) {
      for (const test of testFile.assertionResults.filter((assertion) => assertion.status === 'failed')) {
        const where = relative(process.cwd(), testFile.name);
        result.failures.push(`[${project}] ${where} › ${test.fullName}: ${firstLine(test.failureMessages?.[0])}`);
      }
    }
  }
  const e2eFile = `${dir}/e2e.json`;
  if (existsSync(e2eFile)) {
    const { stats, suites } = playwrightReport.parse(JSON.parse(readFileSync(e2eFile, 'utf8')));
    result.passed += stats.expected;
    result.failed += stats.unexpected + stats.flaky;
    result.failures.push(...failedE2e(suites));
  }
  return result;
}
