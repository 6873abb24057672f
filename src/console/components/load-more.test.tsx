import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { MoreItems } from '../lib/list-pages';
import { LoadMore } from './load-more';

/** An IntersectionObserver the test drives: `show()` brings the observed row into view. */
class FakeObserver {
  static all: FakeObserver[] = [];
  readonly targets: Element[] = [];
  constructor(private readonly callback: IntersectionObserverCallback) {
    FakeObserver.all.push(this);
  }
  observe(target: Element) {
    this.targets.push(target);
  }
  disconnect() {
    this.targets.length = 0;
  }
  show() {
    const entries = this.targets.map((target) => ({ target, isIntersecting: true }));
    this.callback(entries as unknown as IntersectionObserverEntry[], this as never);
  }
}

function more(overrides: Partial<MoreItems> = {}): MoreItems {
  return { hasMore: true, loading: false, error: null, load: vi.fn(), ...overrides };
}

afterEach(() => {
  vi.unstubAllGlobals();
  FakeObserver.all = [];
});

describe('LoadMore', () => {
  it('loads the next page when its row scrolls into view, and from its button', async () => {
    vi.stubGlobal('IntersectionObserver', FakeObserver);
    const state = more();
    render(<LoadMore more={state} what="configs" />);
    FakeObserver.all.at(-1)?.show();
    expect(state.load).toHaveBeenCalledTimes(1);
    await userEvent.click(screen.getByRole('button', { name: 'Load more configs' }));
    expect(state.load).toHaveBeenCalledTimes(2);
  });

  it('says why the next page failed, and then only the button tries again', () => {
    vi.stubGlobal('IntersectionObserver', FakeObserver);
    const state = more({ error: new Error('boom') });
    render(<LoadMore more={state} what="keys" />);
    expect(screen.getByRole('alert').textContent).toMatch(/^More keys could not be loaded\./);
    expect(FakeObserver.all).toEqual([]);
  });

  it('shows nothing on the last page', () => {
    const { container } = render(<LoadMore more={more({ hasMore: false })} what="keys" />);
    expect(container.textContent).toBe('');
  });
});
