/**
 * Which tab a key moves to in a tablist (WAI-ARIA Authoring Practices, tabs with automatic
 * activation): the arrows step and wrap around, Home and End jump to the ends; any other key is not
 * the tablist's (null), so the browser keeps it.
 */
export function tabAfterKey(key: string, current: number, count: number): number | null {
  switch (key) {
    case 'ArrowRight':
      return (current + 1) % count;
    case 'ArrowLeft':
      return (current - 1 + count) % count;
    case 'Home':
      return 0;
    case 'End':
      return count - 1;
    default:
      return null;
  }
}
