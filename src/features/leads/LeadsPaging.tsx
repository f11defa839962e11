/** The pages of the leads list: where this one is, and Previous / Next (waiting while a page loads). */
export function LeadsPaging(props: {
  page: number;
  perPage: number;
  total: number;
  shown: number;
  busy: boolean;
  onPage: (page: number) => void;
}) {
  const { page, perPage, total, shown, busy, onPage } = props;
  const first = (page - 1) * perPage + 1;
  return (
    <nav className="leads-paging" aria-label="Pages of leads">
      <p aria-live="polite">
        {shown > 0 ? `Showing ${first}–${first + shown - 1} of ${total}` : `No leads on this page (${total} in all)`}
      </p>
      <div className="nav-actions">
        <button
          type="button"
          className="button button-secondary"
          disabled={busy || page <= 1}
          onClick={() => onPage(page - 1)}
        >
          Previous
        </button>
        <button
          type="button"
          className="button button-secondary"
          disabled={busy || page * perPage >= total}
          onClick={() => onPage(page + 1)}
        >
          Next
        </button>
      </div>
    </nav>
  );
}
