import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { ConfirmDialog, type ConfirmDialogProps } from './ConfirmDialog.tsx';

/*
 * What the dialog shows in each state, rendered as the server renders it (no DOM here). What only a
 * browser does, focus on Cancel, Escape and focus back on the opener, is checked in
 * tests/e2e/dashboard-leads.spec.ts ("the delete dialog starts on Cancel ...").
 */
const noop = () => undefined;
const ASKING: Omit<ConfirmDialogProps, 'children'> = {
  open: true,
  title: 'Delete this photo?',
  confirmLabel: 'Delete photo',
  pendingLabel: 'Deleting…',
  tone: 'danger',
  pending: false,
  error: null,
  onConfirm: noop,
  onCancel: noop,
};

const render = (props: Partial<Omit<ConfirmDialogProps, 'children'>> = {}) =>
  renderToStaticMarkup(
    createElement(ConfirmDialog, { ...ASKING, ...props, children: createElement('p', null, 'It goes.') }),
  );

/** The buttons of the dialog's actions, as [text, disabled, class]. */
const actions = (html: string) =>
  [...html.matchAll(/<button([^>]*)>([^<]*)<\/button>/g)]
    .filter(([, attributes = '']) => !attributes.includes('modal-close'))
    .map(([, attributes = '', text]) => [
      text,
      attributes.includes('disabled'),
      /class="([^"]*)"/.exec(attributes)?.[1],
    ]);

describe('ConfirmDialog', () => {
  it('is named by its question, says what happens, and offers Cancel before the act, named for it', () => {
    const html = render();
    const labelledBy = /<dialog[^>]*aria-labelledby="([^"]+)"/.exec(html)?.[1];
    expect(html).toContain(`<h2 id="${labelledBy}">Delete this photo?</h2>`);
    expect(html).toContain('<p>It goes.</p>');
    expect(actions(html)).toEqual([
      ['Cancel', false, 'button button-secondary'],
      ['Delete photo', false, 'button button-danger'],
    ]);
  });

  it('takes a primary tone for an act that is safe to undo', () => {
    expect(actions(render({ tone: 'primary', confirmLabel: 'Make active' }))[1]).toEqual([
      'Make active',
      false,
      'button button-primary',
    ]);
  });

  it('while the request runs, the act is disabled and says so; Cancel stays', () => {
    expect(actions(render({ pending: true }))).toEqual([
      ['Cancel', false, 'button button-secondary'],
      ['Deleting…', true, 'button button-danger'],
    ]);
  });

  it('an act that cannot be confirmed yet is disabled under its own words', () => {
    expect(actions(render({ confirmDisabled: true, confirmLabel: 'Counting…' }))[1]).toEqual([
      'Counting…',
      true,
      'button button-danger',
    ]);
  });

  it('a failure is announced inside the dialog, which still offers both choices', () => {
    const html = render({ error: 'Failed to clear leads' });
    const dialog = /<dialog[\s\S]*<\/dialog>/.exec(html)?.[0] ?? '';
    expect(dialog).toMatch(/<div role="alert" class="notice notice-error"><p>Failed to clear leads<\/p><\/div>/);
    expect(actions(dialog).map(([text]) => text)).toEqual(['Cancel', 'Delete photo']);
  });

  it('holds an empty alert region while all is well, so a later failure is announced', () => {
    expect(render()).toContain('<div role="alert" class="notice notice-error"></div>');
  });

  it('closed, it renders none of its content', () => {
    const html = render({ open: false });
    expect(html).not.toContain('It goes.');
    expect(actions(html)).toEqual([]);
  });
});
