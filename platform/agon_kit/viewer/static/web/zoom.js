// Zoom and pan for the replay viewer's boards: mouse wheel, drag and pinch (pointer
// events), double click, and the viewer's buttons and keys.
//
// A board is fitted to a box in its own units (an SVG's user units, or an HTML element's
// CSS pixels): its renderer says which box at each step (what is on the table then, with a
// margin), and the person's zoom and pan apply on top of that box. The box eases from one
// step's to the next, so that the board does not jump about as it grows.
//
// A board too large to be legible in its panel (a whole city on a phone) is not shrunk
// below `minScale` pixels a unit: it is shown zoomed in that far, around the last move (the
// renderer's `focus`), and follows the moves only when one falls outside the middle of the
// view. Zooming out shows the whole board; the "fit" button goes back to this view.
(function () {
  "use strict";

  const MIN_ZOOM = 1;
  const MAX_ZOOM = 8;
  const EASE_MS = 220;
  const views = new Set();

  function clamp(value, low, high) { return Math.max(low, Math.min(high, value)); }
  function reducedMotion() {
    return window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches;
  }

  class ZoomView {
    // `element`: an <svg> (its viewBox moves) or a frame whose `content` moves by a CSS
    // transform. `onChange` hears of every zoom the person makes (to show the level).
    constructor(element, { content = null, onChange = null, minScale = 0 } = {}) {
      this.element = element;
      this.content = content;
      this.onChange = onChange;
      this.minScale = minScale;
      this.auto = true;  // until the person zooms or pans: the view the renderer asks for
      this.focus = null;
      this.fitBox = null;
      this.shown = null;
      this.zoom = 1;
      this.offset = [0, 0];
      this.pointers = new Map();
      this.animation = 0;
      this.lastUpdate = -Infinity;  // when the view last moved (performance.now())
      // The element's size, kept by a ResizeObserver: asking the layout for it on every
      // step, between the renderers' changes, would lay the page out again each time.
      this.box = null;
      if (window.ResizeObserver) {
        new ResizeObserver((entries) => {
          const size = entries[0].borderBoxSize && entries[0].borderBoxSize[0];
          this.box = size ? [size.inlineSize, size.blockSize] : null;
          if (this.fitBox && this.shown) this.update(false);
        }).observe(element);
      }
      element.classList.add("zoomable");
      if (content) content.style.transformOrigin = "0 0";
      views.add(this);
      this.bind();
    }

    // --- the box shown -------------------------------------------------------------------

    fit(box, focus) {
      if (focus) this.focus = focus;
      const same = this.fitBox && box.every((value, k) => Math.abs(value - this.fitBox[k]) < 0.01);
      if (same && !(this.auto && focus)) return;
      this.fitBox = box.slice();
      if (this.auto) this.autoView();
      this.clampOffset();
      this.update(true);
    }

    // Legible: zoomed in as far as `minScale` asks, the focus within the middle of the view.
    autoView() {
      const [x, y, w, h] = this.fitBox;
      const [shownWidth, shownHeight] = this.size();
      const fitScale = Math.min(shownWidth / w, shownHeight / h);
      this.zoom = fitScale > 0 ? clamp(this.minScale / fitScale, MIN_ZOOM, MAX_ZOOM) : MIN_ZOOM;
      if (this.zoom <= MIN_ZOOM) {
        this.offset = [0, 0];
        return;
      }
      const [left, top, width, height] = this.target();
      const [fx, fy] = this.focus || [x + w / 2, y + h / 2];
      const outside = fx < left + 0.2 * width || fx > left + 0.8 * width || fy < top + 0.2 * height || fy > top + 0.8 * height;
      if (outside) this.offset = [fx - (x + w / 2), fy - (y + h / 2)];
      this.clampOffset();
    }

    target() {
      const [x, y, w, h] = this.fitBox;
      const width = w / this.zoom;
      const height = h / this.zoom;
      const cx = x + w / 2 + this.offset[0];
      const cy = y + h / 2 + this.offset[1];
      return [cx - width / 2, cy - height / 2, width, height];
    }

    // Whether the board shows what it is easing to (tests wait for it).
    settled() {
      if (!this.fitBox || !this.shown) return true;
      const to = this.target();
      return this.shown.every((value, k) => Math.abs(value - to[k]) < 0.05);
    }

    update(ease) {
      if (!this.fitBox) return;
      const to = this.target();
      window.cancelAnimationFrame(this.animation);
      // Steps that come faster than an easing lasts (playback, a held arrow key) jump:
      // easing each one would redraw every board on every frame for nothing.
      const now = performance.now();
      const hurried = now - this.lastUpdate < EASE_MS;
      this.lastUpdate = now;
      if (!ease || hurried || !this.shown || reducedMotion()) {
        this.show(to);
        return;
      }
      const from = this.shown.slice();
      const started = performance.now();
      const frame = (now) => {
        const t = clamp((now - started) / EASE_MS, 0, 1);
        const eased = 1 - (1 - t) ** 3;
        this.show(from.map((value, k) => value + (to[k] - value) * eased));
        if (t < 1) this.animation = window.requestAnimationFrame(frame);
      };
      this.animation = window.requestAnimationFrame(frame);
    }

    show(box) {
      this.shown = box;
      const [x, y, w, h] = box;
      if (this.content) {
        const [width, height] = this.size();
        const scale = Math.min(width / w, height / h) || 1;
        const left = (width - w * scale) / 2 - x * scale;
        const top = (height - h * scale) / 2 - y * scale;
        this.content.style.transform = `translate(${left.toFixed(1)}px, ${top.toFixed(1)}px) scale(${scale.toFixed(4)})`;
      } else {
        this.element.setAttribute("viewBox", box.map((value) => value.toFixed(1)).join(" "));
      }
      this.element.classList.toggle("zoomed", this.zoom > MIN_ZOOM);
      this.element.dataset.zoom = this.zoom.toFixed(2);
    }

    size() {
      if (this.box) return this.box;
      const rect = this.element.getBoundingClientRect();
      return [rect.width, rect.height];
    }

    // Pixels of the screen per unit of the board, and a point of the screen in units.
    scale(box) {
      const rect = this.element.getBoundingClientRect();
      return Math.min(rect.width / box[2], rect.height / box[3]) || 1;
    }

    toUnits(clientX, clientY, box) {
      const rect = this.element.getBoundingClientRect();
      const scale = this.scale(box);
      return [
        box[0] + (clientX - rect.left - (rect.width - box[2] * scale) / 2) / scale,
        box[1] + (clientY - rect.top - (rect.height - box[3] * scale) / 2) / scale,
      ];
    }

    // --- what the person does ------------------------------------------------------------

    // Zoom by `factor` keeping the point under (clientX, clientY) where it is (the middle
    // without a point). Whether it zoomed: at either end of the range it does not.
    zoomBy(factor, clientX, clientY) {
      if (!this.fitBox) return false;
      const next = clamp(this.zoom * factor, MIN_ZOOM, MAX_ZOOM);
      if (Math.abs(next - this.zoom) < 1e-6) return false;
      const box = this.target();
      const [x, y, w, h] = this.fitBox;
      const centre = [box[0] + box[2] / 2, box[1] + box[3] / 2];
      const point = clientX === undefined ? centre : this.toUnits(clientX, clientY, box);
      const ratio = this.zoom / next;
      this.offset = [
        point[0] + (centre[0] - point[0]) * ratio - (x + w / 2),
        point[1] + (centre[1] - point[1]) * ratio - (y + h / 2),
      ];
      this.zoom = next;
      this.auto = false;
      this.clampOffset();
      this.update(false);
      if (this.onChange) this.onChange(this);
      return true;
    }

    panBy(dx, dy) {
      if (!this.fitBox || this.zoom <= MIN_ZOOM) return;
      const scale = this.scale(this.target());
      this.offset = [this.offset[0] - dx / scale, this.offset[1] - dy / scale];
      this.auto = false;
      this.clampOffset();
      this.update(false);
    }

    reset() {
      this.auto = true;
      this.zoom = MIN_ZOOM;
      this.offset = [0, 0];
      if (this.fitBox) this.autoView();
      this.update(true);
      if (this.onChange) this.onChange(this);
    }

    // The view stays within the fitted box: zoomed in, it can be moved to its edges.
    clampOffset() {
      if (!this.fitBox) return;
      const [, , w, h] = this.fitBox;
      const spareX = (w - w / this.zoom) / 2;
      const spareY = (h - h / this.zoom) / 2;
      this.offset = [clamp(this.offset[0], -spareX, spareX), clamp(this.offset[1], -spareY, spareY)];
    }

    bind() {
      const element = this.element;
      element.addEventListener("wheel", (event) => {
        const lines = event.deltaMode === 1 ? 16 : 1;
        const factor = Math.exp(-event.deltaY * lines * 0.002);
        // At either end of the range the wheel scrolls the page again.
        if (this.zoomBy(factor, event.clientX, event.clientY)) event.preventDefault();
      }, { passive: false });
      element.addEventListener("dblclick", (event) => {
        event.preventDefault();
        if (!this.zoomBy(2, event.clientX, event.clientY)) this.reset();
      });
      element.addEventListener("pointerdown", (event) => {
        if (event.pointerType === "mouse" && event.button !== 0) return;
        this.pointers.set(event.pointerId, [event.clientX, event.clientY]);
        if (this.pointers.size > 1 || this.zoom > MIN_ZOOM) {
          event.preventDefault();
          try {
            element.setPointerCapture(event.pointerId);
          } catch (error) {
            // A pointer already gone (or made up): its moves simply stop reaching us.
          }
        }
      });
      element.addEventListener("pointermove", (event) => {
        const before = this.pointers.get(event.pointerId);
        if (!before) return;
        const now = [event.clientX, event.clientY];
        this.pointers.set(event.pointerId, now);
        if (this.pointers.size === 1) {
          this.panBy(now[0] - before[0], now[1] - before[1]);
          return;
        }
        // Two fingers: the distance between them zooms, their middle pans.
        const other = [...this.pointers.entries()].find(([id]) => id !== event.pointerId)[1];
        const gap = (a, b) => Math.hypot(a[0] - b[0], a[1] - b[1]) || 1;
        const middle = (a, b) => [(a[0] + b[0]) / 2, (a[1] + b[1]) / 2];
        const [mx0, my0] = middle(before, other);
        const [mx1, my1] = middle(now, other);
        this.zoomBy(gap(now, other) / gap(before, other), mx1, my1);
        this.panBy(mx1 - mx0, my1 - my0);
      });
      const release = (event) => { this.pointers.delete(event.pointerId); };
      element.addEventListener("pointerup", release);
      element.addEventListener("pointercancel", release);
      element.addEventListener("lostpointercapture", release);
    }
  }

  // An HTML board's transform depends on the size of its frame: redone when that changes.
  function refit() {
    for (const view of views) {
      if (view.auto && view.fitBox) {
        view.autoView();
        view.update(false);
      } else if (view.content && view.shown) {
        view.show(view.shown);
      }
    }
  }
  window.addEventListener("resize", refit);
  document.addEventListener("fullscreenchange", refit);

  // The box of each step for boxes of what is on the table at each step (null for an empty
  // table): the union of every box up to that step, so that a board only grows as the match
  // goes on, plus `margin` around it, at least `minWidth` x `minHeight`.
  function growingFits(boxes, { margin = 0, minWidth = 0, minHeight = 0 } = {}) {
    let union = null;
    return boxes.map((box) => {
      if (box) {
        union = union
          ? [Math.min(union[0], box[0]), Math.min(union[1], box[1]), Math.max(union[2], box[2]), Math.max(union[3], box[3])]
          : box.slice();
      }
      const [x0, y0, x1, y1] = union || [0, 0, 0, 0];
      const width = Math.max(x1 - x0 + 2 * margin, minWidth);
      const height = Math.max(y1 - y0 + 2 * margin, minHeight);
      return [(x0 + x1) / 2 - width / 2, (y0 + y1) / 2 - height / 2, width, height];
    });
  }

  // The corners of the boxes [x0, y0, x1, y1] of points.
  function boundsOf(points) {
    if (!points.length) return null;
    const box = [Infinity, Infinity, -Infinity, -Infinity];
    for (const [x, y] of points) {
      box[0] = Math.min(box[0], x); box[1] = Math.min(box[1], y);
      box[2] = Math.max(box[2], x); box[3] = Math.max(box[3], y);
    }
    return box;
  }

  window.AgonZoom = { ZoomView, growingFits, boundsOf, MIN_ZOOM, MAX_ZOOM };
})();
