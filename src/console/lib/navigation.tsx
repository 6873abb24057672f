/**
 * The console's router: react-router's declarative `<Router>` over a history (the browser's;
 * in tests, one in memory), and a navigation guard, `useNavigationGuard`, for unsaved edits.
 *
 * Why not the data router (`createBrowserRouter` + `RouterProvider`): the console has no
 * loaders, actions or fetchers (TanStack Query holds server state), and the data router is
 * about 16 KiB more of gzip on the first page than the declarative router, over its budget (docs/benchmarks.md). Its one
 * feature the console used is `useBlocker`, which this module gives in the same shape.
 */
import {
  createContext,
  startTransition,
  useContext,
  useEffect,
  useLayoutEffect,
  useRef,
  useState,
  useSyncExternalStore,
  type ReactNode,
} from 'react';
import {
  parsePath,
  Router,
  type Location,
  type Navigator,
  type Path,
  type To,
  type UNSAFE_createBrowserHistory,
} from 'react-router';

/** What the router needs of a history; react-router's browser and memory histories have it. */
export type RouterHistory = Pick<
  ReturnType<typeof UNSAFE_createBrowserHistory>,
  'action' | 'location' | 'createHref' | 'encodeLocation' | 'go' | 'push' | 'replace' | 'listen'
>;

type Update = Parameters<Parameters<RouterHistory['listen']>[0]>[0];

/** Whether to hold a navigation from `currentLocation` to `nextLocation` for a question. */
export type ShouldBlock = (args: {
  currentLocation: Location;
  nextLocation: Partial<Path>;
}) => boolean;

export interface NavigationGuard {
  /** `blocked`: a navigation waits for `proceed` or `reset`. */
  readonly state: 'unblocked' | 'blocked';
  proceed: () => void;
  reset: () => void;
}

/**
 * Holds navigations while a guard says so. Links and `navigate` go through `navigator`, so a
 * held push or replace is simply not made yet; Back and Forward have already moved the
 * browser when the history hears of them, so a held one is undone (`go(-delta)`) and redone
 * on `proceed`, as the data router does.
 */
class Guards {
  private shouldBlock: ShouldBlock | null = null;
  private held: (() => void) | null = null;
  /** Pops this class caused itself (undoing or redoing one), which no guard judges. */
  private ownPops = 0;
  private readonly subscribers = new Set<() => void>();
  private location: Location;

  constructor(private readonly history: RouterHistory) {
    this.location = history.location;
  }

  readonly navigator: Navigator = {
    createHref: (to) => this.history.createHref(to),
    encodeLocation: (to) => this.history.encodeLocation(to),
    go: (delta) => this.history.go(delta),
    push: (to, state?: unknown) => this.attempt(to, () => this.history.push(to, state)),
    replace: (to, state?: unknown) => this.attempt(to, () => this.history.replace(to, state)),
  };

  /** Calls `onChange` with every navigation that is made; returns the unsubscribe. */
  listen(onChange: (update: Update) => void): () => void {
    return this.history.listen((update) => {
      if (update.action === 'POP' && this.ownPops > 0) {
        this.ownPops -= 1;
        // The undo of a held pop lands where the page already is: nothing to show.
        if (this.held) return;
      } else if (update.action === 'POP' && update.delta && this.blocks(update.location)) {
        const delta = update.delta;
        this.setHeld(() => {
          this.ownPops += 1;
          this.history.go(delta);
        });
        this.ownPops += 1;
        this.history.go(-delta);
        return;
      }
      this.location = update.location;
      onChange(update);
    });
  }

  /** One guard at a time (the page with unsaved edits); returns the removal. */
  guard(shouldBlock: ShouldBlock): () => void {
    this.shouldBlock = shouldBlock;
    return () => {
      if (this.shouldBlock === shouldBlock) this.shouldBlock = null;
      this.reset();
    };
  }

  subscribe = (onChange: () => void): (() => void) => {
    this.subscribers.add(onChange);
    return () => this.subscribers.delete(onChange);
  };

  isBlocked = (): boolean => this.held !== null;

  proceed = (): void => {
    const held = this.held;
    this.setHeld(null);
    held?.();
  };

  reset = (): void => {
    this.setHeld(null);
  };

  private attempt(to: To, go: () => void): void {
    if (this.blocks(typeof to === 'string' ? parsePath(to) : to)) this.setHeld(go);
    else go();
  }

  private blocks(nextLocation: Partial<Path>): boolean {
    return (
      this.shouldBlock !== null &&
      this.shouldBlock({ currentLocation: this.location, nextLocation })
    );
  }

  private setHeld(held: (() => void) | null): void {
    if (this.held === held) return;
    this.held = held;
    for (const subscriber of this.subscribers) subscriber();
  }
}

const GuardsContext = createContext<Guards | null>(null);

/** The router of the console (and of tests), with navigation guards. */
export function GuardedRouter({
  history,
  basename,
  children,
}: {
  history: RouterHistory;
  /** The address's account prefix (lib/environment.ts), or none. */
  basename?: string;
  children: ReactNode;
}) {
  const [guards] = useState(() => new Guards(history));
  const [state, setState] = useState({ action: history.action, location: history.location });
  // As react-router's BrowserRouter: a navigation is a transition, so a page that suspends
  // (a lazy chunk) does not blank the one on screen before it can show its fallback.
  useLayoutEffect(
    () =>
      guards.listen(({ action, location }) =>
        startTransition(() => setState({ action, location })),
      ),
    [guards],
  );
  return (
    <GuardsContext.Provider value={guards}>
      <Router
        basename={basename || '/'}
        location={state.location}
        navigationType={state.action}
        navigator={guards.navigator}
      >
        {children}
      </Router>
    </GuardsContext.Provider>
  );
}

/**
 * react-router's `useBlocker`: while `shouldBlock` says so, a navigation waits; the page asks
 * the person and calls `proceed` or `reset`.
 */
export function useNavigationGuard(shouldBlock: ShouldBlock): NavigationGuard {
  const guards = useContext(GuardsContext);
  if (!guards) throw new Error('useNavigationGuard needs a GuardedRouter');
  const latest = useRef(shouldBlock);
  useLayoutEffect(() => {
    latest.current = shouldBlock;
  });
  useEffect(() => guards.guard((args) => latest.current(args)), [guards]);
  const blocked = useSyncExternalStore(guards.subscribe, guards.isBlocked);
  return { state: blocked ? 'blocked' : 'unblocked', proceed: guards.proceed, reset: guards.reset };
}
