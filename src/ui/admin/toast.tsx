import { createContext, type ReactNode, useCallback, useContext, useEffect, useRef, useState } from "react";

/**
 * Toasts as docs/PRODUCT.md, _Dashboard_ says: one at a time, 5000 ms, swipe right past 50 px, F8 to reach
 * them.
 */
export const TOAST_DURATION_MS = 5000;
const SWIPE_THRESHOLD_PX = 50;

export interface ToastInput {
  title: string;
  description?: string;
  variant?: "default" | "destructive";
}

interface ToastState extends ToastInput {
  id: number;
}

const ToastContext = createContext<(toast: ToastInput) => void>(() => {});

/** Shows a toast (replacing the one on screen). */
export function useToast(): (toast: ToastInput) => void {
  return useContext(ToastContext);
}

export function ToastProvider({ children }: { children: ReactNode }) {
  const [toast, setToast] = useState<ToastState | null>(null);
  const [dragX, setDragX] = useState(0);
  const nextId = useRef(1);
  const region = useRef<HTMLElement>(null);
  const start = useRef<number | null>(null);
  const [paused, setPaused] = useState(false);

  const show = useCallback((input: ToastInput) => {
    setDragX(0);
    setToast({ ...input, id: nextId.current++ });
  }, []);
  const dismiss = useCallback(() => setToast(null), []);

  useEffect(() => {
    if (!toast || paused) return;
    const timer = setTimeout(dismiss, TOAST_DURATION_MS);
    return () => clearTimeout(timer);
  }, [toast, paused, dismiss]);

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key === "F8") {
        event.preventDefault();
        region.current?.focus();
      }
    };
    globalThis.addEventListener("keydown", onKey);
    return () => globalThis.removeEventListener("keydown", onKey);
  }, []);

  return (
    <ToastContext.Provider value={show}>
      {children}
      <section
        ref={region}
        className="toast-region"
        aria-label="Notificações (F8)"
        tabIndex={-1}
        onMouseEnter={() => setPaused(true)}
        onMouseLeave={() => setPaused(false)}
        onFocus={() => setPaused(true)}
        onBlur={() => setPaused(false)}
      >
        <ol aria-live="polite" aria-atomic="true">
          {toast && (
            <li
              key={toast.id}
              className={`toast${toast.variant === "destructive" ? " toast-destructive" : ""}`}
              role="status"
              data-testid="toast"
              style={dragX
                ? { transform: `translateX(${dragX}px)`, opacity: Math.max(0.2, 1 - dragX / 200) }
                : undefined}
              onPointerDown={(e) => {
                // The × button takes its own clicks: capturing the pointer here would retarget them to the toast.
                if ((e.target as Element).closest(".toast-close")) return;
                start.current = e.clientX;
                e.currentTarget.setPointerCapture?.(e.pointerId);
              }}
              onPointerMove={(e) => {
                if (start.current !== null) setDragX(Math.max(0, e.clientX - start.current));
              }}
              onPointerUp={(e) => {
                const moved = start.current === null ? 0 : e.clientX - start.current;
                start.current = null;
                if (moved > SWIPE_THRESHOLD_PX) dismiss();
                else setDragX(0);
              }}
              onPointerCancel={() => {
                start.current = null;
                setDragX(0);
              }}
            >
              <div className="toast-text">
                <p className="toast-title">{toast.title}</p>
                {toast.description && <p className="toast-description">{toast.description}</p>}
              </div>
              <button type="button" className="toast-close" aria-label="Fechar notificação" onClick={dismiss}>
                ×
              </button>
            </li>
          )}
        </ol>
      </section>
    </ToastContext.Provider>
  );
}
