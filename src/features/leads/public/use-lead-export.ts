import { useEffect, useRef, useState } from 'react';
import type { LeadExportProgress } from './lead-export.ts';
import { leadCsvFileName } from './lead-list.ts';

const count = new Intl.NumberFormat('en-US');

/** What the screen says while the pages come. */
function preparing({ done, total }: LeadExportProgress): string {
  return total === null ? 'Preparing export…' : `Preparing export… ${count.format(done)} of ${count.format(total)}`;
}

/** Saves `file` as a download named `name`, as a link with the download attribute would. */
function save(file: Blob, name: string): void {
  const url = URL.createObjectURL(file);
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  link.click();
  // Some browsers read the URL only after the click has returned; FileSaver.js keeps it for 40 s.
  setTimeout(() => URL.revokeObjectURL(url), 40_000);
}

export interface LeadExport {
  /** Exports the leads that pass `filters` (the screen's) as one file. */
  start: (filters: Readonly<Record<string, string | number | undefined>>) => void;
  /** An export is under way: its button waits. */
  busy: boolean;
  /** "Preparing export… 40,000 of 200,000" while under way, else null. */
  progress: string | null;
  /** Why the last export failed, in the words to show, else null. */
  error: string | null;
}

/**
 * The leads CSV export of the dashboard's and the admin's screens (decision 0029): asks `path` for
 * the pages one after another, says how far it has come, and saves the pages as one file named
 * with today's date. An export still under way when the screen goes is stopped.
 */
export function useLeadExport(path: string): LeadExport {
  const [state, setState] = useState<{ progress: LeadExportProgress | null; error: string | null }>({
    progress: null,
    error: null,
  });
  const running = useRef<AbortController | null>(null);
  useEffect(() => () => running.current?.abort(), []);

  async function run(filters: Readonly<Record<string, string | number | undefined>>) {
    const controller = new AbortController();
    running.current = controller;
    setState({ progress: { done: 0, total: null }, error: null });
    // The export's code comes with the first export: a screen shows its leads without it.
    const exporting = import('./lead-export.ts');
    try {
      const { fetchLeadExport } = await exporting;
      const pages = await fetchLeadExport(
        path,
        filters,
        (url) => fetch(url, { credentials: 'same-origin', signal: controller.signal }),
        (progress) => setState({ progress, error: null }),
      );
      save(new Blob(pages, { type: 'text/csv;charset=utf-8' }), leadCsvFileName(new Date()));
      setState({ progress: null, error: null });
    } catch (failure) {
      if (controller.signal.aborted) return;
      // Settled by now; a module that did not come is a connection's failure too.
      const exporter = await exporting.catch(() => null);
      setState({
        progress: null,
        error:
          exporter && failure instanceof exporter.LeadExportError
            ? `Failed to export leads: ${failure.message}`
            : 'Failed to export leads: check your connection and try again',
      });
    } finally {
      if (running.current === controller) running.current = null;
    }
  }

  return {
    start: (filters) => {
      if (!running.current) void run(filters);
    },
    busy: state.progress !== null,
    progress: state.progress ? preparing(state.progress) : null,
    error: state.error,
  };
}
