// Pan and zoom of an <svg> by its viewBox: the mouse wheel zooms around the pointer, a drag
// (mouse, pen or one finger) pans, two fingers pinch; buttons zoom about the centre and fit the
// whole drawing. The drawing's extent is the svg's `data-extent` ("x y width height", set by
// whoever draws it); a new extent refits. It starts fitted, except in a narrow area (a phone),
// which starts filled so that hexes are big enough to tap. A drag never counts as a click on
// what it started on. The svg gets `--upp` (drawing units per CSS pixel) so CSS can keep text legible, and
// `data-scale` (CSS pixels per unit) for tests; its box gets `--extent-aspect`.

const DRAG_PX = 5; // movement before a press becomes a drag
const MAX_ZOOM = 10; // how far in, as a multiple of the fit scale
const MIN_ZOOM = 0.6; // how far out
const NARROW_PX = 600; // a narrower area (a phone) starts filled, hexes big enough to tap

const parseBox = (text) => {
  const v = String(text || "").trim().split(/[\s,]+/).map(Number);
  return v.length === 4 && v.every(Number.isFinite) && v[2] > 0 && v[3] > 0 ? v : null;
};

/**
 * Make `root` (an <svg>) pannable and zoomable. `controls`: optional buttons
 * { zoomIn, zoomOut, fit }. Returns { fit, zoomBy, zoomAt, panBy, reveal, view }.
 */
export function panZoom(root, controls = {}) {
  let extent = parseBox(root.dataset.extent) || parseBox(root.getAttribute("viewBox"));
  // The view: the drawing point at the centre, and k = drawing units per CSS pixel.
  let cx = 0;
  let cy = 0;
  let k = 1;
  let fitK = 1;
  let fitted = true; // still at the default view (redone when the area's size changes)
  let cover = false; // the default view fills the area (a phone) rather than shows it all
  root.dataset.panzoom = "on";

  const narrow = () => size()[0] < NARROW_PX;
  const size = () => {
    const r = root.getBoundingClientRect();
    return [Math.max(1, r.width), Math.max(1, r.height)];
  };

  function apply() {
    const [w, h] = size();
    const vw = w * k;
    const vh = h * k;
    root.setAttribute("viewBox", `${(cx - vw / 2).toFixed(2)} ${(cy - vh / 2).toFixed(2)} ${vw.toFixed(2)} ${vh.toFixed(2)}`);
    root.style.setProperty("--upp", k.toFixed(4));
    root.dataset.scale = (1 / k).toFixed(4);
    root.dataset.zoom = (fitK / k).toFixed(3);
    root.dataset.fitted = fitted ? "1" : "0";
  }

  function computeFit() {
    if (!extent) return;
    const [w, h] = size();
    fitK = Math.max(extent[2] / w, extent[3] / h);
  }

  /** The whole drawing in the area; `fill`: the area filled (the drawing's middle). */
  function fit(fill = false) {
    if (!extent) return;
    computeFit();
    cover = fill;
    const [w, h] = size();
    k = fill ? Math.min(extent[2] / w, extent[3] / h) : fitK;
    cx = extent[0] + extent[2] / 2;
    cy = extent[1] + extent[3] / 2;
    fitted = true;
    apply();
  }

  /** Keep the view's centre over the drawing and the scale within its limits. */
  function clamp() {
    k = Math.min(fitK / MIN_ZOOM, Math.max(fitK / MAX_ZOOM, k));
    if (!extent) return;
    cx = Math.min(extent[0] + extent[2], Math.max(extent[0], cx));
    cy = Math.min(extent[1] + extent[3], Math.max(extent[1], cy));
  }

  /** Zoom by `factor` (>1: in) keeping the drawing point under client (px, py) in place. */
  function zoomAt(factor, px, py) {
    const r = root.getBoundingClientRect();
    const ox = px - r.left - r.width / 2;
    const oy = py - r.top - r.height / 2;
    const ux = cx + ox * k;
    const uy = cy + oy * k;
    const old = k;
    k = Math.min(fitK / MIN_ZOOM, Math.max(fitK / MAX_ZOOM, k / factor));
    if (k === old) return;
    cx = ux - ox * k;
    cy = uy - oy * k;
    fitted = false;
    clamp();
    apply();
  }

  function zoomBy(factor) {
    const r = root.getBoundingClientRect();
    zoomAt(factor, r.left + r.width / 2, r.top + r.height / 2);
  }

  /** Move the drawing by (dx, dy) CSS pixels. */
  function panBy(dx, dy) {
    cx -= dx * k;
    cy -= dy * k;
    fitted = false;
    clamp();
    apply();
  }

  /** Bring the drawing point (x, y) into view, `margin` CSS pixels inside the area's edges:
   * the view is centred on it when it is outside, and left alone when it is inside. */
  function reveal(x, y, margin = 40) {
    const [w, h] = size();
    const [mx, my] = [Math.min(margin, w / 4) * k, Math.min(margin, h / 4) * k];
    const inside = Math.abs(x - cx) <= (w * k) / 2 - mx && Math.abs(y - cy) <= (h * k) / 2 - my;
    if (inside) return false;
    cx = x;
    cy = y;
    fitted = false;
    clamp();
    apply();
    return true;
  }

  // -- the wheel: zoom around the pointer (a trackpad's pinch arrives as a ctrl+wheel)
  root.addEventListener("wheel", (e) => {
    e.preventDefault();
    const unit = e.deltaMode === 1 ? 16 : e.deltaMode === 2 ? 400 : 1;
    const delta = Math.max(-300, Math.min(300, e.deltaY * unit));
    zoomAt(Math.exp(-delta * (e.ctrlKey ? 0.01 : 0.0018)), e.clientX, e.clientY);
  }, { passive: false });

  // -- pointers: one pans once it has moved DRAG_PX, two pinch
  const pointers = new Map();
  let dragged = false;
  let pinch = null;

  const centre = () => {
    const [a, b] = [...pointers.values()];
    return { x: (a.x + b.x) / 2, y: (a.y + b.y) / 2, d: Math.hypot(a.x - b.x, a.y - b.y) };
  };

  root.addEventListener("pointerdown", (e) => {
    if (e.pointerType === "mouse" && e.button !== 0) return;
    pointers.set(e.pointerId, { x: e.clientX, y: e.clientY, x0: e.clientX, y0: e.clientY });
    if (pointers.size === 1) dragged = false;
    if (pointers.size === 2) {
      pinch = centre();
      dragged = true;
      for (const id of pointers.keys()) {
        try { root.setPointerCapture(id); } catch { /* the pointer is gone */ }
      }
    }
  });

  root.addEventListener("pointermove", (e) => {
    const p = pointers.get(e.pointerId);
    if (!p) return;
    const dx = e.clientX - p.x;
    const dy = e.clientY - p.y;
    p.x = e.clientX;
    p.y = e.clientY;
    if (pointers.size >= 2 && pinch) {
      const now = centre();
      if (pinch.d > 0 && now.d > 0) zoomAt(now.d / pinch.d, now.x, now.y);
      panBy(now.x - pinch.x, now.y - pinch.y);
      pinch = now;
      return;
    }
    if (!dragged && Math.hypot(e.clientX - p.x0, e.clientY - p.y0) < DRAG_PX) return;
    if (!dragged) {
      dragged = true;
      root.classList.add("dragging");
      // Capture only now: a press that stays a click must reach the hex it is on.
      try { root.setPointerCapture(e.pointerId); } catch { /* the pointer is gone */ }
      panBy(e.clientX - p.x0, e.clientY - p.y0);
      return;
    }
    panBy(dx, dy);
  });

  const release = (e) => {
    if (!pointers.delete(e.pointerId)) return;
    if (pointers.size < 2) pinch = null;
    if (pointers.size === 0) root.classList.remove("dragging");
  };
  root.addEventListener("pointerup", release);
  root.addEventListener("pointercancel", release);
  root.addEventListener("lostpointercapture", release);

  // A drag (or pinch) is not a click: swallow the click that ends it, before any hex sees it.
  root.addEventListener("click", (e) => {
    if (dragged) {
      e.stopPropagation();
      e.preventDefault();
      dragged = false;
    }
  }, true);

  // -- the drawing's extent (a new board refits) and the area's size
  const box = root.parentElement;
  const adoptExtent = () => {
    const next = parseBox(root.dataset.extent);
    if (!next) return;
    const changed = !extent || next.some((v, i) => Math.abs(v - extent[i]) > 0.01);
    extent = next;
    if (box) box.style.setProperty("--extent-aspect", (extent[2] / extent[3]).toFixed(4));
    if (changed || fitted) fit(changed ? narrow() : cover);
    else apply(); // the drawer reset the viewBox: put the view back
  };
  new MutationObserver(adoptExtent).observe(root, { attributes: true, attributeFilter: ["data-extent"] });
  let lastSize = size().join("x");
  new ResizeObserver(() => {
    const now = size().join("x");
    if (now === lastSize) return;
    lastSize = now;
    if (fitted) fit(cover);
    else {
      computeFit();
      clamp();
      apply();
    }
  }).observe(root);

  const button = (b, f) => b && b.addEventListener("click", (e) => { e.preventDefault(); f(); });
  button(controls.zoomIn, () => zoomBy(1.4));
  button(controls.zoomOut, () => zoomBy(1 / 1.4));
  button(controls.fit, () => fit(false));

  if (extent) {
    if (box) box.style.setProperty("--extent-aspect", (extent[2] / extent[3]).toFixed(4));
    fit(narrow());
  }
  return { fit, zoomBy, zoomAt, panBy, reveal, view: () => ({ cx, cy, k, fitK, fitted }) };
}
