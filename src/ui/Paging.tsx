/**
 * The pages of a list (the leads, a seller-updates list): where this one is, and Previous / Next
 * (waiting while a page loads). `things` names what is listed: "leads", "sellers".
 */
export function Paging(props: {
  things: string;
  page: number;
  perPage: number;
  total: number;
  shown: number;
  busy: boolean;
  onPage: (page: number) => void;
}) {
  const { things, page, perPage, total, shown, busy, onPage } = props;
  const first = (page - 1) * perPage + 1;
  return (
    <nav className="leads-paging" aria-label={`Pages of ${things}`}>
      <p aria-live="polite">
        {shown > 0
          ? `Showing ${first}–${first + shown - 1} of ${total}`
          : `No ${things} on this page (${total} in all)`}
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
