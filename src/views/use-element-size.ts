// The CSS-pixel size of an element, kept current with a ResizeObserver.

import { useCallback, useRef, useState } from 'react';

/** An element size in CSS pixels. */
export interface ElementSize {
  readonly width: number;
  readonly height: number;
}

/** A ref callback for the element and its size (undefined until it is laid out with a non-zero size). */
export function useElementSize<T extends HTMLElement>(): [(element: T | null) => void, ElementSize | undefined] {
  const [size, setSize] = useState<ElementSize | undefined>(undefined);
  const observer = useRef<ResizeObserver | undefined>(undefined);
  const ref = useCallback((element: T | null) => {
    observer.current?.disconnect();
    observer.current = undefined;
    if (element === null) return;
    const measure = (): void => {
      const width = Math.floor(element.clientWidth);
      const height = Math.floor(element.clientHeight);
      if (width === 0 || height === 0) return;
      setSize((old) => (old?.width === width && old.height === height ? old : { width, height }));
    };
    observer.current = new ResizeObserver(measure);
    observer.current.observe(element);
    measure();
  }, []);
  return [ref, size];
}
