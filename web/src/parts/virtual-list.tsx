/**
 * A scrolling list that renders only the rows in view (and a few beyond), measuring each row as it is
 * drawn: a session of ten thousand messages opens and scrolls as fast as one of ten. Built on
 * TanStack Virtual's framework-free core.
 */
import { elementScroll, measureElement, observeElementOffset, observeElementRect, Virtualizer, type VirtualizerOptions } from '@tanstack/virtual-core';
import type { ComponentChildren } from 'preact';
import { useEffect, useLayoutEffect, useReducer, useRef, useState } from 'preact/hooks';

interface Props<T> {
  items: readonly T[];
  keyOf(item: T): string;
  /** A first guess at a row's height in pixels, replaced by its measure once drawn. */
  estimate: number;
  renderItem(item: T, index: number): ComponentChildren;
  /** Index to bring into view; `request` changes each time it should (again). */
  scrollTo?: { index: number; request: number } | null;
  /** Start at the end (a chat opens on its latest message). */
  startAtEnd?: boolean;
  label: string;
  class?: string;
}

export function VirtualList<T>(props: Props<T>) {
  const scroller = useRef<HTMLDivElement>(null);
  const [, rerender] = useReducer((count: number) => count + 1, 0);
  const options = (): VirtualizerOptions<HTMLDivElement, HTMLElement> => ({
    count: props.items.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => props.estimate,
    getItemKey: (index) => {
      const item = props.items[index];
      return item === undefined ? index : props.keyOf(item);
    },
    overscan: 6,
    scrollToFn: elementScroll,
    observeElementRect,
    observeElementOffset,
    measureElement,
    onChange: () => rerender(undefined),
  });
  const [virtualizer] = useState(() => new Virtualizer<HTMLDivElement, HTMLElement>(options()));
  virtualizer.setOptions(options());

  useLayoutEffect(() => virtualizer._didMount(), [virtualizer]);
  useLayoutEffect(() => virtualizer._willUpdate());

  const count = props.items.length;
  const atEnd = useRef(false);
  useLayoutEffect(() => {
    if (props.startAtEnd === true && count > 0 && !atEnd.current) {
      atEnd.current = true;
      virtualizer.scrollToIndex(count - 1, { align: 'end' });
    }
  }, [count, virtualizer, props.startAtEnd]);

  const target = props.scrollTo;
  useEffect(() => {
    if (target !== null && target !== undefined && target.index >= 0) virtualizer.scrollToIndex(target.index, { align: 'center' });
  }, [target?.request, virtualizer]);

  return (
    <div ref={scroller} class={`virtual-list ${props.class ?? ''}`} role="list" aria-label={props.label} tabIndex={0}>
      <div style={{ height: `${virtualizer.getTotalSize()}px`, position: 'relative', width: '100%' }}>
        {virtualizer.getVirtualItems().map((row) => {
          const item = props.items[row.index];
          if (item === undefined) return null;
          return (
            <div
              key={row.key as string}
              role="listitem"
              aria-setsize={props.items.length}
              aria-posinset={row.index + 1}
              data-index={row.index}
              ref={(node) => virtualizer.measureElement(node)}
              style={{ position: 'absolute', top: 0, left: 0, width: '100%', transform: `translateY(${row.start}px)` }}
            >
              {props.renderItem(item, row.index)}
            </div>
          );
        })}
      </div>
    </div>
  );
}
