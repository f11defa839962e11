import { useId } from 'react';

/**
 * Deleting leads, kept apart from the filters (where a button reads as "clear the filters") and
 * named for what it does: the leads the table matches, or every lead without a filter.
 */
export function DeleteLeads(props: { filtered: boolean; count: number | undefined; onDelete: () => void }) {
  const { filtered, count, onDelete } = props;
  const headingId = useId();
  const some = count === undefined ? '' : ` ${count}`;
  return (
    <section className="leads-delete" aria-labelledby={headingId}>
      <h2 id={headingId}>Delete leads</h2>
      <p>
        {filtered
          ? 'Deletes only the leads that match the search and filters above; your other leads stay.'
          : 'Deletes every lead of yours.'}{' '}
        This cannot be undone: export a CSV first to keep a copy.
      </p>
      <button type="button" className="button button-danger-quiet" onClick={onDelete}>
        {filtered
          ? count === 1
            ? 'Delete this 1 lead'
            : `Delete these${some} leads`
          : count === 1
            ? 'Delete your 1 lead'
            : `Delete all${some} leads`}
      </button>
    </section>
  );
}
