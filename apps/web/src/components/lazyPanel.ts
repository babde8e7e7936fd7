import { lazy, useState, type ComponentType, type LazyExoticComponent } from 'react';

/**
 * A menu, popover or drawer of the shell loaded as its own chunk on first use. The top bar has five of them and the
 * user opens none on most page loads: loading and drawing them at start-up cost the first page a good part of its
 * start (docs/decisions/projects-overview-speed.md). `preload` fetches the chunk ahead, e.g. when the pointer
 * reaches the button, so the panel opens without a visible wait.
 */
export interface LazyPanel<P> {
  Panel: LazyExoticComponent<ComponentType<P>>;
  preload: () => void;
}

export function lazyPanel<P>(load: () => Promise<ComponentType<P>>): LazyPanel<P> {
  let loading: Promise<{ default: ComponentType<P> }> | null = null;
  const start = () => (loading ??= load().then((Component) => ({ default: Component })));
  return {
    Panel: lazy(start),
    preload: () => void start().catch(() => undefined),
  };
}

/**
 * True from the first time `open` is true: a panel is mounted when first opened and then stays mounted, so its
 * closing transition runs and it keeps its state.
 */
export function useOpenedOnce(open: boolean): boolean {
  const [opened, setOpened] = useState(open);
  if (open && !opened) setOpened(true);
  return opened || open;
}
