// Segue studio's page: every picture is drawn by the server with segue's renderer (the picture on show as raw
// RGBA put into a canvas, the others as PNGs); this script only asks for them, shows them, and keeps the form,
// the scrubber and the render in step. Every request carries the token from the page's own URL.
"use strict";

const token = new URLSearchParams(location.search).get("token") || "";
const $ = (id) => document.getElementById(id);

function url(path, params = {}) {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== null && v !== "") q.set(k, v);
  q.set("token", token);
  // URLSearchParams writes a space as "+" (and a "+" as %2B): the server reads a query as a URL's, where "+" is
  // a plus, so a space goes as %20.
  return `${path}?${q.toString().replace(/\+/g, "%20")}`;
}

async function getJSON(path, params) {
  const response = await fetch(url(path, params));
  const body = await response.json();
  if (!response.ok) throw Object.assign(new Error(body.message || response.statusText), { body });
  return body;
}

const studio = {
  state: null,       // /api/state
  subject: null,     // the subject shown
  timeline: null,    // /api/timeline for the subject and settings
  frame: 0,          // the frame the scrubber is on
  exact: null,       // a progress typed in (an effect's one frame), or null
  playing: true,
  direction: 1,      // 1 plays forwards, -1 backwards (J and L)
  speed: 1,          // playback speed, 0.25 to 2
  loop: null,        // {in, out}: the frames playing goes round (I and O), or null for all of them
  comparison: null,  // /api/compare for the picture on show, when GLES is beside it
  lastFrame: null,   // the last picture drawn: {width, height, colorSpace}
  shownKey: null,    // the request the picture on show answers: its PNG's URL (what "Download this frame" saves)
  errors: [],
  timings: [],       // the last frames' fetch (request to bytes) and draw (into the canvas) times, ms
};
window.studio = studio;

// ---- Settings as request parameters --------------------------------------------------------------------

function settings() {
  const p = { subject: studio.subject.id, v: studio.subject.version };
  if (studio.subject.kind === "effect") {
    p.direction = $("direction").value;
    p.curve = $("curve").value.trim();
    p.duration = $("duration").value;
    p.fps = $("fps").value;
    p.size = $("size").value.trim();
    p.from = $("from").value;
    p.to = $("to").value;
    p.sv = studio.state.screensVersion;   // a command line's screen saved again: asked for anew
    // The named fields only: a slider or a colour picker beside a field is the field's, not a value of its own.
    for (const input of document.querySelectorAll("#options input[name], #options select[name]")) {
      if (input.value.trim() !== "") p["o." + input.name] = input.value.trim();
    }
  }
  return p;
}

// ---- Pictures: fetched once per request, newest wins -----------------------------------------------------

/// Answers by request URL, each fetched once; the least recently asked for are dropped past `limit` bytes
/// (each counted once it has come), so that scrubbing back costs nothing and a long session stays bounded.
class PictureStore {
  constructor(limit) { this.limit = limit; this.entries = new Map(); this.bytes = 0; }

  get(key, make) {
    let entry = this.entries.get(key);
    if (entry) {
      this.entries.delete(key);   // the most recently asked for goes last
      this.entries.set(key, entry);
      return entry.promise;
    }
    entry = { promise: make(), bytes: 0 };
    this.entries.set(key, entry);
    entry.promise.then((value) => {
      if (this.entries.get(key) !== entry) return;
      entry.bytes = value.bytes;
      this.bytes += entry.bytes;
      this.trim();
    }, () => { if (this.entries.get(key) === entry) this.entries.delete(key); });
    return entry.promise;
  }

  trim() {
    for (const [key, entry] of this.entries) {
      if (this.bytes <= this.limit) break;
      this.entries.delete(key);
      this.bytes -= entry.bytes;
      entry.promise.then((value) => value.url && URL.revokeObjectURL(value.url), () => {});
    }
  }
}

/// A request's answer, or its refusal as an error carrying the server's words.
async function fetchFrame(key) {
  const response = await fetch(key);
  if (!response.ok) {
    const body = await response.json().catch(() => ({ message: response.statusText }));
    throw Object.assign(new Error(body.message), { body });
  }
  return response;
}

// PNGs (the filmstrip, GLES beside the CPU and their difference): 64 MiB of them.
const pictures = new PictureStore(64 << 20);

function picture(params) {
  const key = url("/api/frame", params);
  return pictures.get(key, () => {
    const asked = performance.now();
    return fetchFrame(key).then(async (response) => {
      const bytes = await response.arrayBuffer();
      const objectURL = URL.createObjectURL(new Blob([bytes], { type: "image/png" }));
      return { url: objectURL, bytes: bytes.byteLength, fetchMs: performance.now() - asked };
    });
  });
}

// The picture on show comes as raw RGBA in runs (`format=rgba-runs`: straight alpha, its size and working space
// in headers) and is put into the #frame canvas: no PNG encoded on the server, none decoded here. A 750x1334
// door frame is 64 KB of runs (4 MB raw, which took Chromium 20-50 ms to receive on 2 busy cores), where its
// PNG cost 11 ms to encode and 8-16 ms for Chromium to decode. 64 MiB of them, kept as they came.
const rawFrames = new PictureStore(64 << 20);

function rawFrame(params) {
  const key = url("/api/frame", { ...params, format: "rgba-runs" });
  return rawFrames.get(key, () => {
    const asked = performance.now();
    return fetchFrame(key).then(async (response) => {
      const width = Number(response.headers.get("X-Segue-Width")), height = Number(response.headers.get("X-Segue-Height"));
      const colorSpace = response.headers.get("X-Segue-Colour-Space") === "display-p3" ? "display-p3" : "srgb";
      const runs = await response.arrayBuffer();
      return { runs, width, height, colorSpace, bytes: runs.byteLength, fetchMs: performance.now() - asked };
    });
  });
}

/// The frame's pixels from its runs (the server's PixelRuns): 32-bit words, each op `kind << 30 | count`
/// (little-endian, as every browser's typed arrays are here) followed by its pixels: 0, `count` pixels that
/// follow; 1, the pixel before repeated; 2, the pixels one row up, copied a row at most at a time (a longer
/// copy repeats what it has just written). Undone into one ImageData kept while the size and space stay
/// (putImageData copies it), so a frame allocates nothing.
let unrunInto = null;
function unrun(frame) {
  if (!unrunInto || unrunInto.width !== frame.width || unrunInto.height !== frame.height || (unrunInto.colorSpace || "srgb") !== frame.colorSpace) {
    unrunInto = new ImageData(frame.width, frame.height, { colorSpace: frame.colorSpace });
  }
  const words = new Uint32Array(frame.runs), width = frame.width, out = new Uint32Array(unrunInto.data.buffer);
  let i = 0, j = 0;
  while (j < words.length) {
    const op = words[j++], kind = op >>> 30, count = op & 0x3fffffff;
    if (i + count > out.length) break;
    if (kind === 0) { out.set(words.subarray(j, j + count), i); j += count; }
    else if (kind === 1) out.fill(out[i - 1], i, i + count);
    else if (kind === 2) for (let k = 0; k < count; k += width) out.copyWithin(i + k, i + k - width, i + k - width + Math.min(width, count - k));
    else break;
    i += count;
  }
  if (i !== out.length || j !== words.length) throw new Error("the frame's runs do not fill it");
  return unrunInto;
}

// Whether a canvas here can hold Display P3 (its context keeps the space asked for): where it cannot, a P3
// frame is drawn from its PNG, which the browser colour-manages, as it did an <img>.
const canvasP3 = (() => {
  try {
    const context = document.createElement("canvas").getContext("2d", { colorSpace: "display-p3" });
    return context.getContextAttributes().colorSpace === "display-p3";
  } catch { return false; }
})();

let frameContext = null;

/// Puts `image` (ImageData) into the #frame canvas. A canvas's colour space is fixed when its context is made,
/// so a frame in another space gets a new canvas made in it: its pixels, read back in its space, are the
/// frame's bytes. The canvas answers `naturalWidth`/`naturalHeight` as an <img> would, for the code that sizes
/// the view and places the handles. `image` may be an ImageBitmap (a P3 frame's PNG where canvases are sRGB).
function paint(image) {
  let canvas = $("frame");
  const space = (image instanceof ImageData && image.colorSpace) || "srgb";
  if (!frameContext || canvas.dataset.space !== space) {
    const made = canvas.cloneNode(false);
    made.dataset.space = space;
    Object.defineProperty(made, "naturalWidth", { get() { return studio.lastFrame ? this.width : 0; } });
    Object.defineProperty(made, "naturalHeight", { get() { return studio.lastFrame ? this.height : 0; } });
    canvas.replaceWith(made);
    canvas = made;
    frameContext = canvas.getContext("2d", { colorSpace: space });
  }
  const resized = canvas.width !== image.width || canvas.height !== image.height;
  if (resized) { canvas.width = image.width; canvas.height = image.height; }
  if (image instanceof ImageData) frameContext.putImageData(image, 0, 0);
  else { frameContext.clearRect(0, 0, canvas.width, canvas.height); frameContext.drawImage(image, 0, 0); }
  return resized;
}

let wanted = null;      // the newest request for the main picture
let inFlight = false;
let shownResolvers = [];

/// Shows the picture for `params` (the newest asked for wins; earlier ones still in flight are dropped).
function show(params) {
  wanted = params;
  if (!inFlight) pump();
  return new Promise((resolve) => shownResolvers.push({ key: url("/api/frame", params), resolve }));
}

async function pump() {
  inFlight = true;
  while (wanted) {
    const params = wanted;
    wanted = null;
    const key = url("/api/frame", params);
    try {
      const frame = await rawFrame(params);
      const drawing = performance.now();
      let image;
      if (frame.colorSpace === "display-p3" && !canvasP3) image = await createImageBitmap(await (await fetchFrame(key)).blob());
      else image = unrun(frame);
      const resized = paint(image);
      studio.timings.push({ fetch: frame.fetchMs, draw: performance.now() - drawing });
      if (studio.timings.length > 500) studio.timings.shift();
      studio.lastFrame = { width: image.width, height: image.height, colorSpace: $("frame").dataset.space };
      studio.shownKey = key;
      // The PNG `segue render` writes, asked for when it is saved.
      $("download").href = key;
      $("download").download = downloadName(params);
      studio.shownSubject = params.subject;
      $("frame").hidden = false;
      if (resized) setView(studio.view);
      drawHandles();
      clearError();
      // A storyboard that draws has no problems (an effect file's are shown while its last good version draws).
      if (studio.subject && studio.subject.kind === "storyboard" && studio.problems) showProblems(null);
      if ($("compare").checked) compare(params);
      fetchAhead(params);
    } catch (error) {
      // No picture answers these settings: the last one (maybe another effect's) is not shown as theirs.
      if (studio.shownSubject !== params.subject || !(error.body && error.body.problems && error.body.problems.length)) hidePicture();
      setPlaying(false);
      showError(error);
    }
    shownResolvers = shownResolvers.filter((r) => {
      if (r.key === key || !wanted) { r.resolve(key); return false; }
      return true;
    });
  }
  inFlight = false;
}

// Frames after one shown while moving forward are fetched before they are asked for (the server draws them
// ahead too), so that a scrub or playback finds each one here when it gets there, ready to put into the canvas.
let lastShownFrame = null;

function fetchAhead(params) {
  if (params.frame === undefined || !studio.timeline) return;
  const forward = lastShownFrame === null || params.frame >= lastShownFrame;
  lastShownFrame = params.frame;
  if (!forward) return;
  const last = Math.min(params.frame + 3, studio.timeline.count - 1);
  for (let j = params.frame + 1; j <= last; j++) rawFrame({ ...params, frame: j }).catch(() => {});
}

function hidePicture() {
  $("frame").hidden = true;
  studio.shownSubject = null;
  studio.shownKey = null;
  lastGoodNote();
  drawHandles();
}

function frameParams(k) {
  const p = settings();
  if (studio.exact !== null && studio.subject.kind === "effect") p.t = studio.exact;
  else p.frame = k;
  return p;
}

/// The name "Download this frame" gives the picture on show: the subject and its frame or progress.
function downloadName(params) {
  const name = (studio.subject ? studio.subject.name : "frame").replace(/\.json$/, "").replace(/[^A-Za-z0-9._-]+/g, "-");
  return params.t !== undefined ? `${name}-progress-${params.t}.png` : `${name}-frame-${params.frame}.png`;
}

async function compare(params) {
  const gles = { ...params, backend: "gles" };
  $("gles-figure").hidden = false;
  try {
    const [pic, result, cpu] = await Promise.all([picture(gles), getJSON("/api/compare", params), picture(params)]);
    $("frame-gles").src = pic.url;
    $("psnr").textContent = result.identical ? "GLES and CPU: identical bytes"
      : result.psnr !== null && result.psnr !== undefined ? `PSNR ${Number(result.psnr).toFixed(2)} dB` : result.message;
    studio.comparison = result;
    const worst = result.worst;
    if ($("difference").checked && worst) {
      $("psnr").textContent += ` · ${result.differing} pixels differ, the most at (${worst.x}, ${worst.y}) by ${worst.difference}: `
        + `CPU ${worst.cpu.join(" ")}, GLES ${worst.gles.join(" ")} (premultiplied RGBA)`;
    }
    if ($("difference").checked && !result.message) await drawDifference(cpu.url, pic.url, result);
  } catch (error) {
    $("psnr").textContent = error.message;
  }
}

/// GLES against the CPU as a picture: each channel's difference (alpha's folded into each colour) times the
/// amplification, black where they agree, and a ring round the pixel the server found differs most.
async function drawDifference(cpuURL, glesURL, result) {
  const load = async (src) => { const img = new Image(); img.src = src; await img.decode(); return img; };
  const [a, b] = await Promise.all([load(cpuURL), load(glesURL)]);
  const w = a.naturalWidth, h = a.naturalHeight;
  const canvas = $("difference-canvas");
  canvas.width = w;
  canvas.height = h;
  const context = canvas.getContext("2d", { willReadFrequently: true });
  context.drawImage(a, 0, 0);
  const x = context.getImageData(0, 0, w, h).data;
  context.clearRect(0, 0, w, h);
  context.drawImage(b, 0, 0);
  const y = context.getImageData(0, 0, w, h).data;
  const amplify = Number($("amplify").value);
  const out = context.createImageData(w, h);
  for (let i = 0; i < x.length; i += 4) {
    const alpha = Math.abs(x[i + 3] - y[i + 3]);
    for (let c = 0; c < 3; c++) out.data[i + c] = Math.min(255, Math.max(Math.abs(x[i + c] - y[i + c]), alpha) * amplify);
    out.data[i + 3] = 255;
  }
  context.putImageData(out, 0, 0);
  const worst = result.worst;
  if (worst) {
    context.strokeStyle = "#ff00ff";
    context.lineWidth = Math.max(1, w / 250);
    context.beginPath();
    context.arc(worst.x + 0.5, worst.y + 0.5, Math.max(6, w / 30), 0, 2 * Math.PI);
    context.stroke();
    $("difference-caption").textContent = `difference ×${amplify}, the most at (${worst.x}, ${worst.y})`;
  } else {
    $("difference-caption").textContent = "difference: no pixel differs";
  }
  studio.differenceDrawn = (studio.differenceDrawn || 0) + 1;
  setView(studio.view);
}

// ---- Scrubber, readout, play loop -----------------------------------------------------------------------

/// A time as the readout says it: to the hundredth of a second, or the thousandth where frames come faster
/// than one a hundredth apart.
function seconds(x, fps) {
  return `${x.toFixed(fps > 100 ? 3 : 2)} s`;
}

/// Frames are counted from 1 here, as a person counts them (the requests and the command keep segue's own
/// numbering, from 0); a storyboard's step is named, and an effect, one step, has none to name.
function readout() {
  const t = studio.timeline;
  if (!t || t.count === 0) return;
  const k = studio.frame;
  if (studio.exact !== null && studio.subject.kind === "effect") {
    $("readout").textContent = `progress ${studio.exact} (one frame at this progress)`;
  } else {
    const parts = [`frame ${k + 1} of ${t.count}`, seconds(t.times[k], t.fps)];
    const step = studio.subject.kind === "storyboard" ? t.timeline[t.steps[k]] : null;
    if (step) parts.push(step.name);
    parts.push(`progress ${t.progress[k].toFixed(2)}`);
    $("readout").textContent = parts.join(" · ");
  }
  const marker = $("strip").querySelector(".marker");
  if (marker && t.count > 1) marker.style.left = `${(100 * k) / (t.count - 1)}%`;
  drawPlayhead();
}

function goTo(k, { exact = null } = {}) {
  const t = studio.timeline;
  if (!t) return Promise.resolve();
  studio.frame = Math.max(0, Math.min(t.count - 1, k));
  studio.exact = exact;
  $("scrubber").value = String(studio.frame);
  readout();
  updateCommand();
  return show(frameParams(studio.frame));
}

/// The first and last frames playing goes round: the loop's, or every frame.
function loopBounds(count) {
  const loop = studio.loop;
  if (!loop) return [0, count - 1];
  const a = Math.min(loop.in ?? 0, count - 1), b = Math.min(loop.out ?? count - 1, count - 1);
  return a <= b ? [a, b] : [b, a];
}

// Playing: the frame is where the clock says since play started, at the speed asked for, from the frame it
// started on (or the loop's end it goes from), in the direction asked for, round and round the loop.
let playStart = null, playFrom = 0;
function tick(now) {
  const t = studio.timeline;
  if (studio.playing && t && t.count > 1 && !studio.problems) {
    const [a, b] = loopBounds(t.count);
    const span = b - a + 1;
    if (playStart === null) {
      playStart = now;
      playFrom = studio.frame >= a && studio.frame <= b ? studio.frame : studio.direction > 0 ? a : b;
    }
    const elapsed = Math.floor(((now - playStart) / 1000) * t.fps * studio.speed);
    const k = a + ((((playFrom - a + studio.direction * elapsed) % span) + span) % span);
    if (k !== studio.frame || studio.exact !== null) goTo(k);
  }
  requestAnimationFrame(tick);
}

/// Marks the frame on show as the loop's in or out point; null: no loop.
function setLoop(end) {
  if (end === null) studio.loop = null;
  else studio.loop = { ...(studio.loop || {}), [end]: studio.frame };
  playStart = null;
  const count = studio.timeline ? studio.timeline.count : 1;
  const [a, b] = loopBounds(count);
  $("loop").textContent = studio.loop ? `loop: frames ${a + 1} to ${b + 1}` : "";
  $("loop-whole").disabled = !studio.loop;
}

function setSpeed(speed) {
  studio.speed = speed;
  playStart = null;   // from the frame on show, at the new speed
  $("speed").value = String(speed);
}

function setPlaying(on, direction = 1) {
  studio.playing = on;
  if (on) studio.direction = direction;
  playStart = null;
  $("play").textContent = on ? "Pause" : "Play";
}

// ---- Keys -----------------------------------------------------------------------------------------------

/// A field that takes typing (text, numbers, a list): keys there are its own. A button, a checkbox or the
/// scrubber is not one: space plays there too.
function isTextField(element) {
  if (!element || !element.closest) return false;
  if (element.closest("textarea, select, [contenteditable]")) return true;
  const input = element.closest("input");
  return !!input && !["checkbox", "radio", "range", "button", "submit", "reset", "file", "color"].includes(input.type);
}

function showHelp(on) {
  $("help").hidden = !on;
  if (on) $("help-close").focus();
}

const keys = {
  " ": () => setPlaying(!studio.playing),
  "ArrowLeft": (e) => { setPlaying(false); goTo(studio.frame - (e.shiftKey ? 10 : 1)); },
  "ArrowRight": (e) => { setPlaying(false); goTo(studio.frame + (e.shiftKey ? 10 : 1)); },
  "Home": () => { setPlaying(false); goTo(0); },
  "End": () => { setPlaying(false); goTo(studio.timeline ? studio.timeline.count - 1 : 0); },
  "j": () => setPlaying(true, -1),
  "k": () => setPlaying(false),
  "l": () => setPlaying(true, 1),
  "i": () => setLoop("in"),
  "o": () => setLoop("out"),
  "0": () => setView("fit"),
  "1": () => setView("1"),
  "?": () => showHelp($("help").hidden),
};

function keydown(e) {
  // Ctrl-S (Cmd-S) saves the editor's text wherever the focus is, rather than the browser saving the page.
  if ((e.ctrlKey || e.metaKey) && !e.altKey && e.key.toLowerCase() === "s" && editor.subject) {
    e.preventDefault();
    saveSource();
    return;
  }
  if (e.ctrlKey || e.metaKey || e.altKey) return;
  if (e.key === "Escape" && !$("help").hidden) { showHelp(false); return; }
  if (isTextField(e.target)) return;
  // An option's (or the spring's) slider takes its own arrows, Home and End (the scrubber's are the frame's).
  if (e.target.closest && e.target.closest("#options, #spring-editor") && /^(Arrow|Home$|End$|Page)/.test(e.key)) return;
  const action = keys[e.key.length === 1 ? e.key.toLowerCase() : e.key];
  if (!action) return;
  e.preventDefault();   // space would press a focused button, arrows move the focused scrubber
  action(e);
}

/// Drags the scrubber across every frame, each shown before the next is asked for, as a hand would; the
/// frames shown per second (what the studio's test holds to at least 30).
studio.measureScrub = async function (count) {
  setPlaying(false);
  const n = Math.min(count || studio.timeline.count, studio.timeline.count);
  studio.timings = [];
  const started = performance.now();
  for (let k = 0; k < n; k++) {
    $("scrubber").value = String(k);
    $("scrubber").dispatchEvent(new Event("input"));
    await studio.shown;
  }
  const seconds = (performance.now() - started) / 1000;
  const mean = (key) => studio.timings.reduce((a, t) => a + t[key], 0) / Math.max(1, studio.timings.length);
  return { frames: n, seconds, fps: n / seconds, fetchMs: mean("fetch"), drawMs: mean("draw") };
};

// ---- The picture's size: fit, 1:1 and zoom -------------------------------------------------------------

// "fit": as large as the window lets it; a number: that many device pixels per frame pixel (1:1 is one), so a
// frame's pixels are the screen's whatever the display's scale; from 8, a grid between them.
studio.view = "fit";
function setView(view) {
  studio.view = view;
  const box = $("pictures");
  const zoom = view === "fit" ? 0 : Number(view);
  box.classList.toggle("fit", !zoom);
  box.classList.toggle("zoomed", zoom > 0);
  box.classList.toggle("grid", zoom >= 8);
  for (const button of document.querySelectorAll("#view button")) button.setAttribute("aria-pressed", String(button.dataset.view === view));
  // Fit: the pictures on show (the CPU's, GLES's, their difference) side by side, each whole and as large as
  // the box's width shared between them and the window's height let it.
  const shown = [...box.querySelectorAll("figure")].filter((f) => !f.hidden).length || 1;
  const em = parseFloat(getComputedStyle(document.documentElement).fontSize);
  const gap = parseFloat(getComputedStyle(box).columnGap) || 0;
  const fitWidth = (box.clientWidth - gap * (shown - 1)) / shown - 2, fitHeight = Math.max(12 * em, innerHeight - 17 * em);
  for (const img of box.querySelectorAll("img, canvas")) {
    const figure = img.parentElement;
    let grid = figure.querySelector(".grid");
    const naturalWidth = img.naturalWidth ?? img.width, naturalHeight = img.naturalHeight ?? img.height;
    if (!zoom || !naturalWidth) {
      const scale = naturalWidth ? Math.min(fitWidth / naturalWidth, fitHeight / naturalHeight) : 0;
      img.style.width = scale ? `${naturalWidth * scale}px` : "";
      img.style.height = scale ? `${naturalHeight * scale}px` : "";
      if (grid) grid.remove();
      continue;
    }
    const w = (naturalWidth * zoom) / devicePixelRatio, h = (naturalHeight * zoom) / devicePixelRatio;
    img.style.width = `${w}px`;
    img.style.height = `${h}px`;
    if (zoom >= 8) {
      if (!grid) { grid = document.createElement("div"); grid.className = "grid"; figure.append(grid); }
      Object.assign(grid.style, { width: `${w}px`, height: `${h}px` });
      grid.style.setProperty("--cell", `${zoom / devicePixelRatio}px`);
    } else if (grid) grid.remove();
  }
  const img = $("frame");
  $("frame-size").textContent = img.naturalWidth ? `${img.naturalWidth}×${img.naturalHeight}` : "";
  for (const slider of document.querySelectorAll("#options input[data-frame-bound]")) slider.follow();
  drawHandles();
}

// ---- Subjects, form, timeline ---------------------------------------------------------------------------

async function loadState() {
  studio.state = await getJSON("/api/state");
  const select = $("subject");
  const chosen = select.value;
  select.replaceChildren(...studio.state.subjects.map((s) => new Option(`${s.name}${s.kind === "storyboard" ? " (storyboard)" : ""}`, s.id)));
  select.value = chosen || studio.state.subjects[0].id;
  fillScreens();
  if (!studio.screensSet) {
    $("from").value = studio.state.from;
    $("to").value = studio.state.to;
    studio.screensSet = true;
  }
  return studio.state;
}

function fillScreens() {
  for (const id of ["from", "to"]) {
    const select = $(id);
    const value = select.value;
    select.replaceChildren(...studio.state.screens.map((s) => new Option(s.width ? `${s.label} (${s.width}x${s.height})` : s.label, s.id)));
    if (value) select.value = value;
  }
}

function currentSubject() {
  return studio.state.subjects.find((s) => s.id === $("subject").value) || studio.state.subjects[0];
}

function buildForm() {
  const s = studio.subject;
  $("summary").textContent = s.summary || (s.file ? s.file : "");
  const isEffect = s.kind === "effect";
  for (const id of ["screens", "options-set"]) $(id).hidden = !isEffect;
  // A storyboard's timing is its steps': the fieldset shows the curve of the step on show, and nothing to set.
  $("timing").classList.toggle("story", !isEffect);
  $("timing-legend").textContent = isEffect ? "Timing and size" : "The step's curve";
  $("progress").disabled = !isEffect;
  $("go").disabled = !isEffect;
  $("duration").placeholder = s.duration ? `${s.duration} (effect's own)` : "effect's own";
  $("curve").placeholder = s.curve ? `${s.curve} (effect's own)` : "effect's own";
  $("defaults").hidden = !(isEffect && s.file);
  const box = $("options");
  const values = {};
  for (const input of box.querySelectorAll("input[name], select[name]")) values[input.name] = input.value;
  box.replaceChildren();
  if (!s.options || s.options.length === 0) {
    box.textContent = isEffect ? "This effect has no options." : "";
  }
  for (const o of s.options || []) {
    const label = document.createElement("label");
    label.className = "option";
    label.title = `${o.help} (${o.form}; range: ${o.range}; default: ${o.defaultText})`;
    const name = document.createElement("span");
    name.textContent = `--${o.name}`;
    label.append(name);
    let input;
    if (o.kind === "choice") {
      input = document.createElement("select");
      input.append(new Option(`(${o.defaultText})`, ""));
      for (const c of o.choices) input.append(new Option(c, c));
    } else {
      input = document.createElement("input");
      input.placeholder = o.defaultText;
      if (o.kind === "number") input.inputMode = "decimal";
    }
    input.name = o.name;
    input.value = values[o.name] || "";
    const hint = document.createElement("small");
    hint.textContent = `${o.valueName} · ${o.form}${o.range !== "any" ? " · " + o.range : ""}${o.repeatable ? " · several with ; between" : ""}: ${o.help}`;
    const row = document.createElement("span");
    row.className = "row";
    row.append(input, ...controls(o, input));
    label.append(row, hint);
    box.append(label);
  }
  drawCurve();
  // The handles on the picture stay with their option when the form is built again (a file saved again).
  const still = drag.option && [...box.querySelectorAll("input[name]")].find((i) => i.name === drag.option.name);
  const option = still && (s.options || []).find((o) => o.name === drag.option.name && o.kind === drag.option.kind);
  if (option) onPicture(option, still, still.parentElement.querySelector("button.on-picture"));
  else onPicture(null);
}

// ---- Controls that fit the value: a slider, a colour picker, handles on the picture ---------------------
// The text field stays what is sent (as the command line writes the value; empty is the default): each
// control only writes it, and follows it.

/// The interval a number option's slider covers (the server's `range`), or null: `unit` is [0, 1];
/// `up-to-frame-height` is (0, H] for a frame H points high (the frame on show: studio draws one pixel a point),
/// so whole points from 1 to H, H following the frame; `positive`, `non-negative` and `any` are open above: no
/// slider.
function sliderInterval(range) {
  if (range === "unit") return { min: 0, max: 1, step: 0.01 };
  if (range === "up-to-frame-height") return { min: 1, max: frameHeight(), step: 1, frameBound: true };
  return null;
}

/// The frame's height in points: the frame on show, or the default frame's (375x667 points) before one is.
function frameHeight() {
  return $("frame").naturalHeight || 667;
}

/// The controls beside an option's field.
function controls(o, input) {
  const interval = o.kind === "number" ? sliderInterval(o.range) : null;
  if (interval) {
    const slider = document.createElement("input");
    slider.type = "range";
    slider.className = "slider";
    Object.assign(slider, { min: String(interval.min), max: String(interval.max), step: String(interval.step) });
    slider.setAttribute("aria-label", `--${o.name}`);
    const follow = () => {
      if (interval.frameBound) interval.max = frameHeight();
      slider.max = String(interval.max);
      // The default's number: sheet's reads "400, at most the frame's height".
      const v = input.value.trim() === "" ? parseFloat(o.defaultText) : Number(input.value.trim());
      slider.value = String(Number.isFinite(v) ? Math.min(interval.max, Math.max(interval.min, v)) : interval.min);
    };
    // A frame of another height moves the end of a slider bound to it (`setView` asks).
    if (interval.frameBound) { slider.dataset.frameBound = "height"; slider.follow = follow; }
    follow();
    input.addEventListener("input", follow);
    // While it moves, the picture follows; let go (its change reaches the form), the filmstrip too.
    slider.addEventListener("input", () => { input.value = slider.value; moved(); });
    return [slider];
  }
  if (o.kind === "color") {
    const picker = document.createElement("input");
    picker.type = "color";
    picker.setAttribute("aria-label", `--${o.name}`);
    const follow = () => {
      const hex = (input.value.trim() || o.defaultText).replace(/^#/, "");
      if (/^[0-9a-f]{6}([0-9a-f]{2})?$/i.test(hex)) picker.value = "#" + hex.slice(0, 6).toLowerCase();
    };
    follow();
    input.addEventListener("input", follow);
    picker.addEventListener("input", () => {
      // RRGGBB as the command line takes it; an alpha typed in the field (RRGGBBAA) is kept.
      const alpha = /^#?[0-9a-f]{8}$/i.test(input.value.trim()) ? input.value.trim().slice(-2) : "";
      input.value = picker.value.slice(1).toUpperCase() + alpha;
      moved();
    });
    return [picker];
  }
  if (o.kind === "point" || o.kind === "rect") {
    const button = document.createElement("button");
    button.type = "button";
    button.className = "on-picture";
    button.textContent = "On picture";
    button.title = o.kind === "point" ? "drag the point on the picture" : "drag the rectangle on the picture (its corner resizes it)";
    button.setAttribute("aria-pressed", "false");
    button.addEventListener("click", (e) => { e.preventDefault(); onPicture(drag.option === o ? null : o, input, button); });
    input.addEventListener("focus", () => { if (drag.option !== o) onPicture(o, input, button); });
    input.addEventListener("input", drawHandles);
    return [button];
  }
  return [];
}

// The curve's editor: the curve the picture is drawn with (the field's; the effect's own for the direction
// when the field is empty), plotted as e against t, with the playhead on it at the frame's progress. A cubic
// (a named curve is one) shows its two control points, which drag; dropped, the field takes
// cubic(x1,y1,x2,y2). A spring shows its damping and velocity, a slider and a number each, which write
// spring(damping,velocity). The maths is TimingCurve's (docs/effects.md, section 2), mirrored here.
const NAMED_CURVES = { "linear": [0, 0, 1, 1], "ease-in": [0.42, 0, 1, 1], "ease-out": [0, 0, 0.58, 1],
  "ease-in-out": [0.42, 0, 0.58, 1], "default": [0.25, 0.1, 0.25, 1] };   // TimingCurve.named

/// The numbers of `name(a,b,...)` when there are `count` of them, each finite; else null.
function curveArguments(s, name, count) {
  const m = new RegExp(`^${name}\\(([^)]*)\\)$`).exec(s);
  const v = m ? m[1].split(",").map((x) => (x === "" ? NaN : Number(x))) : [];
  return v.length === count && v.every(Number.isFinite) ? v : null;
}

/// A curve's text as TimingCurve(parsing:) reads it: {cubic: [x1, y1, x2, y2]}, {spring: [damping, velocity]}
/// or {linear: true}; null for what segue refuses.
function curveOf(text) {
  const s = (text || "").replace(/\s/g, "").toLowerCase();
  if (s === "linear") return { linear: true, cubic: [...NAMED_CURVES.linear] };
  if (NAMED_CURVES[s]) return { cubic: [...NAMED_CURVES[s]] };
  const cubic = curveArguments(s, "cubic", 4);
  if (cubic) return cubic[0] >= 0 && cubic[0] <= 1 && cubic[2] >= 0 && cubic[2] <= 1 ? { cubic } : null;
  const spring = curveArguments(s, "spring", 2);
  return spring && spring[0] > 0 ? { spring } : null;
}

function cubicOf(text) {
  const c = curveOf(text);
  return c && c.cubic ? c.cubic : null;
}

/// The effect's own curve and duration for the direction in the form.
function ownTiming() {
  const s = studio.subject;
  if (!s) return { curve: null, duration: null };
  const back = $("direction").value === "back";
  return { curve: back ? s.backCurve || s.curve : s.curve, duration: back ? s.backDuration || s.duration : s.duration };
}

/// The curve the picture is drawn with: the field's when it is one segue reads, else the effect's own.
/// A storyboard's: the curve of the step on show (none for a hold), over the seconds it runs, drawn as it is
/// (it is the storyboard's to change), with `step` its index.
function curveInUse() {
  const timeline = studio.timeline;
  if (studio.subject && studio.subject.kind === "storyboard") {
    const index = timeline && timeline.steps ? timeline.steps[studio.frame] : undefined;
    const step = index === undefined ? null : timeline.timeline[index];
    return { curve: step && step.curve ? curveOf(step.curve) : null, duration: (step && step.curveDuration) || 1, step: index, fixed: true };
  }
  const own = ownTiming();
  const field = $("curve").value.trim();
  const duration = Number($("duration").value) > 0 ? Number($("duration").value) : own.duration || 1;
  return { curve: curveOf(field || own.curve), duration };
}

/// e at progress t on a CSS cubic Bezier: its parameter solved for x = t (Newton, then bisection), as
/// CubicBezier.y(atX:) does.
function cubicY([x1, y1, x2, y2], x) {
  const sample = (a1, a2, s) => { const u = 1 - s; return 3 * u * u * s * a1 + 3 * u * s * s * a2 + s * s * s; };
  const slope = (a1, a2, s) => { const u = 1 - s; return 3 * u * u * a1 + 6 * u * s * (a2 - a1) + 3 * s * s * (1 - a2); };
  if (x <= 0) return x === 0 ? 0 : sample(y1, y2, 0);
  if (x >= 1) return 1;
  let s = x;
  for (let i = 0; i < 8; i++) {
    const err = sample(x1, x2, s) - x;
    if (Math.abs(err) < 1e-7) return sample(y1, y2, s);
    const d = slope(x1, x2, s);
    if (Math.abs(d) < 1e-6) break;
    s -= err / d;
    if (s < 0 || s > 1) break;
  }
  let lo = 0, hi = 1;
  s = x;
  for (let i = 0; i < 60; i++) {
    const v = sample(x1, x2, s);
    if (Math.abs(v - x) < 1e-7) break;
    if (v < x) lo = s; else hi = s;
    s = (lo + hi) / 2;
  }
  return sample(y1, y2, s);
}

/// e at progress t on spring(damping, velocity) lasting `duration` s: ω0 = ln(1000) / (ζ T), τ = t T, and the
/// underdamped, critically damped or overdamped closed form (Spring.value(at:)).
function springY([zeta, v0], duration, t) {
  const omega0 = Math.log(1000) / (zeta * Math.max(duration, 1e-9));
  const tau = t * duration, a = zeta * omega0;
  if (Math.abs(zeta - 1) < 1e-9) return 1 - Math.exp(-omega0 * tau) * (1 + (omega0 - v0) * tau);
  if (zeta < 1) {
    const wd = omega0 * Math.sqrt(1 - zeta * zeta);
    return 1 - Math.exp(-a * tau) * (Math.cos(wd * tau) + ((a - v0) / wd) * Math.sin(wd * tau));
  }
  const wd = omega0 * Math.sqrt(zeta * zeta - 1), c = (a - v0) / wd, slow = omega0 / (zeta + Math.sqrt(zeta * zeta - 1));
  return 1 - ((1 + c) * Math.exp(-slow * tau) + (1 - c) * Math.exp(-(a + wd) * tau)) / 2;
}

function easedAt(curve, duration, t) {
  if (curve.linear) return t;
  return curve.spring ? springY(curve.spring, duration, t) : cubicY(curve.cubic, t);
}

/// The progress of the frame on show: the one typed in, or the frame's within its step.
function progressOnShow() {
  if (studio.exact !== null) return Number(studio.exact);
  const t = studio.timeline;
  return t && t.progress && t.progress[studio.frame] !== undefined ? t.progress[studio.frame] : null;
}

let curveDrag = null;   // the control points while one is dragged
let drawnStep = null, drawnTimeline = null;   // the step (of a storyboard) and the timeline the curve is drawn for
function drawCurve() {
  const { curve, duration, step, fixed } = curveInUse();
  drawnStep = step;
  drawnTimeline = studio.timeline;
  const v = curveDrag || (curve && curve.cubic);
  const editor = $("curve-editor");
  const shown = !!curve;
  editor.toggleAttribute("hidden", !shown);   // an <svg> has no `hidden` property, only the attribute
  $("spring-editor").hidden = !(shown && curve.spring && !fixed);
  $("curve-note").hidden = !(fixed && !shown);
  if (fixed) {
    const s = studio.timeline && step !== undefined ? studio.timeline.timeline[step] : null;
    $("timing-legend").textContent = s ? `Step ${step + 1}, ${s.name}: ${s.curve || "no curve"}` : "The step's curve";
  }
  studio.curvePlayhead = null;
  if (!shown) return;
  const set = (el, attributes) => { for (const [k, x] of Object.entries(attributes)) el.setAttribute(k, String(x)); };
  const used = curveDrag ? { cubic: curveDrag } : curve;
  if (v && !curve.spring) {
    const [x1, y1, x2, y2] = v;
    $("curve-path").setAttribute("d", `M0 0 C${x1} ${y1} ${x2} ${y2} 1 1`);
    set($("curve-arm1"), { x1: 0, y1: 0, x2: x1, y2: y1 });
    set($("curve-arm2"), { x1: 1, y1: 1, x2: x2, y2: y2 });
    set(editor.querySelector(".p1"), { cx: x1, cy: y1 });
    set(editor.querySelector(".p2"), { cx: x2, cy: y2 });
  } else {
    // A spring: its values at 241 points (enough for a few swings), no control points.
    const points = [];
    for (let i = 0; i <= 240; i++) points.push(`${i / 240} ${easedAt(used, duration, i / 240).toFixed(4)}`);
    $("curve-path").setAttribute("d", `M${points.join(" L")}`);
  }
  // A storyboard's step's curve is shown, not edited here: no control points.
  for (const id of ["curve-arm1", "curve-arm2"]) $(id).toggleAttribute("hidden", !!curve.spring || !!fixed);
  for (const c of editor.querySelectorAll(".p1, .p2")) c.toggleAttribute("hidden", !!curve.spring || !!fixed);
  editor.setAttribute("aria-label", fixed ? "the step's curve" : curve.spring ? "the spring's curve" : "the curve: drag its two handles");
  if (curve.spring && !fixed) followSpring(curve.spring);
  drawPlayhead();
}

/// The playhead: a line at the progress of the frame on show and a dot where the curve is then (each frame
/// shown moves it; the curve is drawn again only when it changes).
function drawPlayhead() {
  const { curve, duration, step } = curveInUse();
  // Another step of a storyboard, or another timeline (the subject's, a file saved again): its own curve.
  if (step !== drawnStep || studio.timeline !== drawnTimeline) { drawCurve(); return; }
  if ($("curve-editor").hasAttribute("hidden")) return;
  const t = progressOnShow();
  $("curve-playhead").toggleAttribute("hidden", t === null || !curve);
  if (t === null || !curve) return;
  const used = curveDrag ? { cubic: curveDrag } : curve;
  const e = easedAt(used, duration, t);
  const set = (el, attributes) => { for (const [k, x] of Object.entries(attributes)) el.setAttribute(k, String(x)); };
  set($("curve-playhead-line"), { x1: t, y1: -0.25, x2: t, y2: 1.25 });
  set($("curve-playhead-dot"), { cx: t, cy: Math.max(-0.25, Math.min(1.25, e)) });
  studio.curvePlayhead = { t, e };
}
studio.easedAt = (text, duration, t) => easedAt(curveOf(text), duration, t);

/// The spring's sliders and numbers follow its values (unless one of them is being typed in).
function followSpring([damping, velocity]) {
  for (const [name, value] of [["damping", damping], ["velocity", velocity]]) {
    const slider = $(`spring-${name}`), number = $(`spring-${name}-number`);
    slider.value = String(value);
    if (document.activeElement !== number) number.value = String(value);
  }
}

/// A spring's damping or velocity moved (the other kept as it is): the field takes spring(damping,velocity)
/// and the picture follows.
function springMoved(index, text) {
  const value = Number(text);
  const { curve } = curveInUse();
  if (!curve || !curve.spring || text.trim() === "") return;
  const spring = [...curve.spring];
  spring[index] = value;
  // segue takes a damping above 0 and any finite velocity.
  if (!(spring[0] > 0) || !Number.isFinite(spring[1])) return;
  $("curve").value = `spring(${spring.map(String).join(",")})`;
  drawCurve();
  moved();
}

function wireCurveEditor() {
  const space = $("curve-space");
  for (const [selector, i] of [[".p1", 0], [".p2", 2]]) {
    const handle = $("curve-editor").querySelector(selector);
    handle.addEventListener("pointerdown", (e) => {
      if (e.button !== 0) return;
      e.preventDefault();
      const start = cubicOf($("curve").value.trim() || ownTiming().curve);
      if (!start) return;
      const follow = (ev) => {
        const p = new DOMPoint(ev.clientX, ev.clientY).matrixTransform(space.getScreenCTM().inverse());
        // x in [0, 1] (segue refuses others), y a little past the box for an overshoot; two decimals.
        const v = curveDrag || [...start];
        v[i] = Math.round(Math.min(1, Math.max(0, p.x)) * 100) / 100;
        v[i + 1] = Math.round(Math.min(1.25, Math.max(-0.25, p.y)) * 100) / 100;
        curveDrag = v;
        drawCurve();
      };
      followDrag(e, handle, follow, () => {
        $("curve").value = `cubic(${curveDrag.map(String).join(",")})`;
        curveDrag = null;
        drawCurve();
        changed();
      });
    });
  }
  for (const [index, name] of ["damping", "velocity"].entries()) {
    $(`spring-${name}`).addEventListener("input", () => springMoved(index, $(`spring-${name}`).value));
    $(`spring-${name}-number`).addEventListener("input", () => springMoved(index, $(`spring-${name}-number`).value));
  }
  $("curve").addEventListener("input", drawCurve);
  $("duration").addEventListener("input", drawCurve);
  $("direction").addEventListener("change", drawCurve);
}

/// An option's control moved: the frame on show is drawn with the field's new value.
function moved() {
  if (studio.timeline && !studio.problems) goTo(studio.frame, { exact: studio.exact });
  else updateCommand();
}

const drag = { option: null, input: null, button: null, values: null };   // the point or rectangle on the picture
studio.drag = drag;

/// Shows the handles of a point or rectangle option on the picture (null: none).
function onPicture(o, input, button) {
  if (drag.button) drag.button.setAttribute("aria-pressed", "false");
  Object.assign(drag, { option: o, input: o ? input : null, button: o ? button : null, values: null });
  if (button && o) button.setAttribute("aria-pressed", "true");
  const box = $("handles");
  box.replaceChildren();
  if (o && o.kind === "point") {
    const handle = document.createElement("div");
    handle.className = "handle point";
    handle.onpointerdown = (e) => startDrag(e, "move");
    box.append(handle);
    // Pressed anywhere on the picture, the point goes there and follows the pointer.
    box.onpointerdown = (e) => startDrag(e, "point");
  } else if (o) {
    box.onpointerdown = null;   // the rectangles are made by `drawHandles`, one a value
  }
  drawHandles();
}

/// The rectangle on the picture for the `k`th value of a rectangle option: moved by its body, resized by its
/// corner; numbered where the option has several (hero's pairs: the same number in from-rect and to-rect).
function rectangleArea(k) {
  const area = document.createElement("div");
  area.className = "area";
  const corner = document.createElement("div");
  corner.className = "handle corner";
  const number = document.createElement("span");
  number.className = "pair";
  area.append(number, corner);
  area.onpointerdown = (e) => startDrag(e, "move", k);
  corner.onpointerdown = (e) => startDrag(e, "resize", k);
  return area;
}

/// Each value of an option in frame pixels: a repeatable option's field holds its values with `;` between
/// them (each its own `--NAME VALUE` in the command), any other's one value.
function pictureValues(o, text) {
  return (o.repeatable ? text.split(";") : [text]).map((part) => pictureValue(o, part));
}

/// Frame pixels per shown pixel: the picture's natural size over the size it is shown at (fit or zoom).
function shownScale() {
  const img = $("frame");
  return img.naturalWidth && img.clientWidth ? img.clientWidth / img.naturalWidth : 0;
}

/// An option's value in frame pixels (studio draws at one pixel a point): the field's, else its default,
/// else what the default means for the frame on show, else its example.
function pictureValue(o, text) {
  const count = o.kind === "point" ? 2 : 4;
  const numbers = (t) => {
    const v = (t || "").split(",").map((x) => (x.trim() === "" ? NaN : Number(x)));
    return v.length === count && v.every(Number.isFinite) ? v : null;
  };
  const img = $("frame");
  const W = img.naturalWidth, H = img.naturalHeight;
  return numbers(text.trim()) || numbers(o.defaultText)
    || (o.kind === "point" && o.defaultText === "frame centre" ? [W / 2, H / 2] : null)
    || (o.kind === "rect" && o.defaultText === "whole frame" ? [0, 0, W, H] : null)
    || numbers(o.example)
    || (o.kind === "point" ? [W / 2, H / 2] : [W / 4, H / 4, W / 2, H / 2]);
}

/// Places the handles at the option's value (or where a drag has them) on the picture as it is shown.
function drawHandles() {
  const box = $("handles");
  const img = $("frame");
  const scale = shownScale();
  if (!drag.option || img.hidden || !scale) { box.hidden = true; return; }
  box.hidden = false;
  box.style.width = `${img.clientWidth}px`;
  box.style.height = `${img.clientHeight}px`;
  const values = drag.values || pictureValues(drag.option, drag.input.value);
  const px = (x) => `${x * scale}px`;
  if (drag.option.kind === "rect") {
    while (box.children.length < values.length) box.append(rectangleArea(box.children.length));
    while (box.children.length > values.length) box.lastElementChild.remove();
  }
  values.forEach((v, k) => {
    const element = box.children[k];
    Object.assign(element.style, { left: px(v[0]), top: px(v[1]) });
    if (drag.option.kind === "rect") {
      Object.assign(element.style, { width: px(v[2]), height: px(v[3]) });
      element.querySelector(".pair").textContent = values.length > 1 ? String(k + 1) : "";
    }
  });
}

/// A number as the command line writes it: whole pixels where the pointer moved it, others as they were.
const compact = (x) => String(Number(x.toFixed(3)));

/// Drags the point, the rectangle (move) or its corner (resize) with the pointer; dropped, the field takes the
/// value in frame pixels and the picture is drawn again.
function startDrag(e, mode, index = 0) {
  if (e.button !== 0) return;
  e.preventDefault();
  e.stopPropagation();
  const target = e.currentTarget;
  const scale = shownScale();
  const img = $("frame");
  const at = (ev) => {
    const r = img.getBoundingClientRect();
    return [(ev.clientX - r.left - img.clientLeft) / scale, (ev.clientY - r.top - img.clientTop) / scale];
  };
  // The one value dragged (one pair of hero's); the others are written back as they were.
  const all = pictureValues(drag.option, drag.input.value);
  const start = all[index];
  const [x0, y0] = at(e);
  const follow = (ev) => {
    const [x, y] = at(ev);
    const v = [...start];
    if (mode === "point") { v[0] = Math.round(x); v[1] = Math.round(y); }
    else if (mode === "move") { v[0] = Math.round(start[0] + x - x0); v[1] = Math.round(start[1] + y - y0); }
    else { v[2] = Math.max(1, Math.round(start[2] + x - x0)); v[3] = Math.max(1, Math.round(start[3] + y - y0)); }
    drag.values = all.map((w, k) => (k === index ? v : w));
    drawHandles();
  };
  if (mode === "point") follow(e);
  followDrag(e, target, follow, () => {
    if (drag.values) drag.input.value = drag.values.map((v) => v.map(compact).join(",")).join("; ");
    drag.values = null;
    drawHandles();
    changed();
  });
}

/// Follows the drag that pointer event `e` starts on `target` (which captures the pointer): `follow` for each
/// move and for the last position, then `dropped` once, when the pointer is released or the drag is cancelled.
function followDrag(e, target, follow, dropped) {
  target.setPointerCapture(e.pointerId);
  const drop = (ev) => {
    follow(ev);
    target.removeEventListener("pointermove", follow);
    target.removeEventListener("pointerup", drop);
    target.removeEventListener("pointercancel", drop);
    dropped();
  };
  target.addEventListener("pointermove", follow);
  target.addEventListener("pointerup", drop);
  target.addEventListener("pointercancel", drop);
}

function lastGoodNote() {
  $("last-good").hidden = !(studio.subject && studio.shownSubject === studio.subject.id);
}

function showProblems(problems) {
  studio.problems = problems && problems.length ? problems : null;
  $("problems").hidden = !studio.problems;
  if (studio.problems && studio.subject && studio.shownSubject !== studio.subject.id) hidePicture();
  lastGoodNote();
  $("problem-list").replaceChildren(...(problems || []).map((p) => {
    const li = document.createElement("li");
    if (p.line) {
      // Where it is in the file: a link that puts the editor's caret there.
      const at = document.createElement("a");
      at.href = "#source";
      at.className = "at";
      at.textContent = `line ${p.line}, column ${p.column}`;
      at.addEventListener("click", (e) => { e.preventDefault(); caretTo(p.line, p.column); });
      li.append(at, document.createTextNode(" "));
    }
    const path = document.createElement("code");
    path.textContent = p.path;
    li.append(path, document.createTextNode(" " + p.message));
    return li;
  }));
  markLines();
}

async function loadTimeline() {
  try {
    studio.timeline = await getJSON("/api/timeline", settings());
  } catch (error) {
    if (error.body && error.body.problems && error.body.problems.length) showProblems(error.body.problems);
    else { hidePicture(); setPlaying(false); showError(error); }
    return false;
  }
  const t = studio.timeline;
  $("scrubber").max = String(t.count - 1);
  if (studio.frame >= t.count) studio.frame = t.count - 1;
  const strip = $("strip");
  strip.hidden = studio.subject.kind !== "storyboard";
  strip.replaceChildren();
  const total = t.timeline.reduce((a, s) => a + s.duration, 0) || 1;
  for (const [i, step] of t.timeline.entries()) {
    const cell = document.createElement("button");
    cell.type = "button";
    cell.className = "step";
    cell.style.flexGrow = String(step.duration / total);
    cell.textContent = step.name;
    cell.title = `step ${i + 1}: ${step.name}, ${step.duration} s from ${step.start.toFixed(2)} s (frame ${step.firstFrame + 1})`;
    cell.addEventListener("click", () => { setPlaying(false); goTo(step.firstFrame); });
    strip.append(cell);
  }
  const marker = document.createElement("div");
  marker.className = "marker";
  strip.append(marker);
  return true;
}

function filmstrip() {
  const t = studio.timeline;
  const box = $("filmstrip");
  box.replaceChildren();
  for (const f of [0, 0.25, 0.5, 0.75, 1]) {
    const params = settings();
    if (studio.subject.kind === "effect") params.t = f;
    else params.frame = Math.round(f * (t.count - 1));
    const figure = document.createElement("figure");
    const img = document.createElement("img");
    img.alt = `t = ${f}`;
    const caption = document.createElement("figcaption");
    caption.textContent = `t = ${f}`;
    figure.append(img, caption);
    if (studio.subject.kind === "effect") {
      figure.addEventListener("click", () => { setPlaying(false); $("progress").value = f; showExact(f); });
    } else {
      figure.addEventListener("click", () => { setPlaying(false); goTo(params.frame); });
    }
    figure.hidden = true;
    box.append(figure);
    picture(params).then((pic) => { img.src = pic.url; figure.hidden = false; }).catch(() => {});
  }
}

async function refresh() {
  studio.subject = currentSubject();
  showProblems(studio.subject.problems);
  if (studio.problems && studio.subject.kind === "effect") { updateCommand(); return; }
  if (!(await loadTimeline())) return;
  filmstrip();
  await goTo(studio.frame, { exact: studio.exact });
}

async function changed() {
  studio.exact = studio.subject && studio.subject.kind === "effect" ? studio.exact : null;
  await refresh();
}

function showExact(t) {
  const value = Number(t);
  if (!(value >= 0 && value <= 1)) { showError(new Error("the progress is a number in [0, 1]")); return Promise.resolve(); }
  setPlaying(false);
  const timeline = studio.timeline;
  return goTo(timeline && timeline.count > 1 ? Math.round(value * (timeline.count - 1)) : studio.frame, { exact: value });
}

// ---- Editor: the file on show, saved with Ctrl-S ------------------------------------------------------------

const editor = {
  subject: null,   // the subject whose file the editor holds, or null
  digest: null,    // the digest of the text as loaded or last saved: a save replaces only that version
  loaded: "",      // that text (the editor's text differs from it: unsaved)
  saves: 0,
  refused: null,   // the status of the last save refused (409: the file changed on disk)
};
studio.editor = editor;
const LINE_HEIGHT = 18;   // px: the gutter's lines and the text's, as studio.css sets them

/// Loads the file of the subject on show into the editor, unless the editor holds unsaved text of it: then
/// it says the file changed on disk (when it did) and keeps the text.
async function loadSource({ force = false } = {}) {
  const s = studio.subject;
  const has = !!(s && s.file);
  $("editor").hidden = !has;
  document.querySelector("main").classList.toggle("editing", has);
  if (!has) { editor.subject = null; return; }
  let source;
  try {
    source = await getJSON("/api/source", { subject: s.id });
  } catch (error) {
    editorStatus(error.message, true);
    return;
  }
  const text = $("source");
  const unsaved = editor.subject === s.id && text.value !== editor.loaded;
  if (unsaved && !force) {
    if (source.digest !== editor.digest && source.text !== text.value) {
      editorStatus("The file changed on disk since it was loaded: Ctrl-S would not overwrite it. Load it again to take its text (yours is lost).", true);
      $("editor-reload").hidden = false;
    }
    return;
  }
  editor.subject = s.id;
  editor.digest = source.digest;
  editor.loaded = source.text;
  // The same text is left alone, so that the caret stays where it is (and "saved" said) after a save.
  const other = text.value !== source.text || !$("editor-reload").hidden;
  if (text.value !== source.text) text.value = source.text;
  text.readOnly = !source.editable;
  $("editor-name").textContent = source.path;
  $("editor-reload").hidden = true;
  if (!source.editable) editorStatus("This file is not UTF-8 text: shown, not saved.", true);
  else if (other) editorStatus("");
  gutter();
  showUnsaved();
}

async function saveSource() {
  if (!editor.subject || $("source").readOnly) return;
  const text = $("source").value;
  editorStatus("saving…");
  const response = await fetch(url("/api/source", { subject: editor.subject, digest: editor.digest }),
    { method: "POST", body: text, headers: { "Content-Type": "text/plain; charset=utf-8" } });
  const body = await response.json().catch(() => ({ message: response.statusText }));
  if (!response.ok) {
    editor.refused = response.status;
    editorStatus(body.message, true);
    if (response.status === 409) $("editor-reload").hidden = false;
    return;
  }
  editor.digest = body.digest;
  editor.loaded = text;
  editor.saves += 1;
  editorStatus("saved");
  showUnsaved();
  return true;
}
studio.saveSource = saveSource;

/// Whether the editor holds text the file does not have.
function unsavedText() {
  return !!editor.subject && !$("source").readOnly && $("source").value !== editor.loaded;
}
studio.unsavedText = unsavedText;

/// "unsaved" beside the file's name while the text differs from the file, and in the status line unless that
/// says why a save was refused.
function showUnsaved() {
  const on = unsavedText();
  $("editor-unsaved").hidden = !on;
  if ($("editor-status").classList.contains("error")) return;
  if (on) editorStatus("unsaved: Ctrl-S saves");
  else if ($("editor-status").textContent.startsWith("unsaved")) editorStatus("");
}

function editorStatus(message, bad = false) {
  $("editor-status").textContent = message;
  $("editor-status").className = bad ? "note error" : "note";
}

/// One number per line of the text beside it, and the problems' lines marked.
function gutter() {
  const lines = $("source").value.split("\n").length;
  const box = $("gutter");
  if (box.childElementCount !== lines) {
    const numbers = [];
    for (let i = 1; i <= lines; i++) {
      const n = document.createElement("div");
      n.textContent = String(i);
      numbers.push(n);
    }
    box.replaceChildren(...numbers);
  }
  markLines();
  scrolled();
}

/// The lines the problems on show are on: their numbers marked, their text behind a band, each saying its
/// problems when pointed at.
function markLines() {
  const box = $("gutter");
  const bands = $("bands");
  if (!box || !bands) return;
  for (const n of box.querySelectorAll(".bad")) { n.classList.remove("bad"); n.removeAttribute("title"); }
  bands.replaceChildren();
  if (!editor.subject || !studio.subject || editor.subject !== studio.subject.id) return;
  const byLine = new Map();
  for (const p of studio.problems || []) {
    if (!p.line) continue;
    byLine.set(p.line, [...(byLine.get(p.line) || []), `${p.path}: ${p.message}`]);
  }
  for (const [line, messages] of byLine) {
    const n = box.children[line - 1];
    if (n) { n.classList.add("bad"); n.title = messages.join("\n"); }
    const band = document.createElement("div");
    band.className = "band";
    band.style.top = `${(line - 1) * LINE_HEIGHT}px`;
    bands.append(band);
  }
}

/// The gutter and the bands follow the text's scrolling.
function scrolled() {
  const text = $("source");
  $("gutter").style.transform = `translateY(${-text.scrollTop}px)`;
  $("bands").style.transform = `translate(${-text.scrollLeft}px, ${-text.scrollTop}px)`;
}

/// Puts the caret at a line and column (each from 1; the column in characters, as the server counts) and
/// scrolls the line into view.
function caretTo(line, column) {
  const text = $("source");
  const lines = text.value.split("\n");
  const l = Math.max(1, Math.min(line, lines.length));
  let offset = 0;
  for (let i = 0; i < l - 1; i++) offset += lines[i].length + 1;
  offset += [...lines[l - 1]].slice(0, Math.max(0, column - 1)).join("").length;
  text.focus();
  text.setSelectionRange(offset, offset);
  text.scrollTop = Math.max(0, (l - 1) * LINE_HEIGHT - text.clientHeight / 3);
  scrolled();
}
studio.caretTo = caretTo;

// ---- The form's values written into the effect file as its defaults ------------------------------------------

/// A JSON text read with where each value is: {type, start, end} (offsets into the text; `end` past the
/// value), an object's `members` ({key, keyStart, value}) and a list's `items`. Only for text JSON.parse takes.
function locatedJSON(text) {
  let at = 0;
  const space = () => { while (at < text.length && " \t\r\n".includes(text[at])) at++; };
  const string = () => {
    const start = at;
    at++;
    while (text[at] !== '"') at += text[at] === "\\" ? 2 : 1;
    at++;
    return JSON.parse(text.slice(start, at));
  };
  const value = () => {
    space();
    const start = at;
    const c = text[at];
    if (c === "{") {
      at++;
      const members = [];
      space();
      if (text[at] === "}") { at++; return { type: "object", start, end: at, members }; }
      for (;;) {
        space();
        const keyStart = at;
        const key = string();
        space();
        at++;   // :
        members.push({ key, keyStart, value: value() });
        space();
        if (text[at++] === "}") return { type: "object", start, end: at, members };
      }
    }
    if (c === "[") {
      at++;
      const items = [];
      space();
      if (text[at] === "]") { at++; return { type: "array", start, end: at, items }; }
      for (;;) {
        items.push(value());
        space();
        if (text[at++] === "]") return { type: "array", start, end: at, items };
      }
    }
    if (c === '"') { const v = string(); return { type: "string", start, end: at, value: v }; }
    while (at < text.length && !",}] \t\r\n".includes(text[at])) at++;
    return { type: "scalar", start, end: at };
  };
  return value();
}

/// The edits that give object `node` of `text` the member `key` with the JSON `json`: its value replaced where
/// it has one, else a member added after its last, on a line of its own where the object has its members on
/// lines of their own.
function setMember(text, node, key, json) {
  const member = node.members.find((m) => m.key === key);
  if (member) return [{ start: member.value.start, end: member.value.end, text: json }];
  const pair = `${JSON.stringify(key)}: ${json}`;
  if (!node.members.length) return [{ start: node.start + 1, end: node.end - 1, text: pair }];
  const last = node.members[node.members.length - 1];
  const lineStart = text.lastIndexOf("\n", last.keyStart) + 1;
  const indent = text.slice(lineStart, last.keyStart);
  const separator = /^[ \t]*$/.test(indent) ? `,\n${indent}` : ", ";
  return [{ start: last.value.end, end: last.value.end, text: separator + pair }];
}

/// An option's field as the JSON its `default` takes (the form segue's effect files use): a number, [x, y],
/// [x, y, w, h], "RRGGBB" or a choice's name; null when the field is no such value.
function optionJSON(o, text) {
  const number = (x) => {
    const t = x.trim();
    if (/^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?$/.test(t)) return t;
    const v = Number(t);
    return t !== "" && Number.isFinite(v) ? String(v) : null;
  };
  if (o.kind === "number") return number(text);
  if (o.kind === "point" || o.kind === "rect") {
    const parts = text.split(",").map(number);
    return parts.length === (o.kind === "point" ? 2 : 4) && parts.every((p) => p !== null) ? `[${parts.join(", ")}]` : null;
  }
  return JSON.stringify(text.trim());
}

/// Writes the form's values into the effect file in the editor and saves it, as Ctrl-S does: each option's
/// field that has a value as that option's `default` (in place of `"required": true`; an option whose
/// default is `computed` is left as it is), and the curve and duration fields' as the file's (its `back`'s
/// where the form plays back and the back direction has its own). Fields left empty write nothing, and the
/// rest of the text is kept. Saved, the fields written are emptied: their values are the file's defaults now,
/// and the picture is the same.
async function writeDefaults() {
  const say = (message, bad = false) => { $("defaults-message").textContent = message; $("defaults-message").className = bad ? "note error" : "note"; };
  const s = studio.subject;
  if (!s || !s.file || editor.subject !== s.id || $("source").readOnly) { say("Only an effect file named on the command line is written.", true); return; }
  const text = $("source").value;
  let root;
  try { JSON.parse(text); root = locatedJSON(text); } catch (error) { say(`The editor's text is not JSON (${error.message}): mend it first.`, true); return; }
  if (root.type !== "object") { say("The editor's text is not an effect file's object.", true); return; }
  const edits = [], written = [], kept = [];
  const member = (node, key) => node && node.type === "object" ? (node.members.find((m) => m.key === key) || {}).value : undefined;
  const list = member(root, "options");
  for (const input of document.querySelectorAll("#options input[name], #options select[name]")) {
    const value = input.value.trim();
    if (value === "") continue;
    const o = (s.options || []).find((x) => x.name === input.name);
    const item = list && list.type === "array" ? list.items.find((i) => member(i, "name") && member(i, "name").value === input.name) : null;
    const json = o && optionJSON(o, value);
    if (!item || json === null || member(item, "computed")) { kept.push(`--${input.name}`); continue; }
    const required = item.members.find((m) => m.key === "required");
    if (required) edits.push({ start: required.keyStart, end: required.value.end, text: `"default": ${json}` });
    else edits.push(...setMember(text, item, "default", json));
    written.push(`--${input.name}`);
  }
  // The timing the picture plays: the back direction's own where it has one and the form plays back.
  const back = member(root, "back");
  const timing = $("direction").value === "back" && back && back.type === "object" && (member(back, "curve") || member(back, "duration")) ? back : root;
  const curve = $("curve").value.trim(), duration = $("duration").value.trim();
  if (curve !== "") { edits.push(...setMember(text, timing, "curve", JSON.stringify(curve))); written.push("curve"); }
  if (duration !== "") {
    const json = optionJSON({ kind: "number" }, duration);
    if (json === null) kept.push("the duration");
    else { edits.push(...setMember(text, timing, "duration", json)); written.push("duration"); }
  }
  if (!edits.length) { say(kept.length ? `Nothing written: ${kept.join(", ")} cannot be written as a default.` : "Nothing to write: every field is empty (the file's own values)."); return; }
  let next = text;
  for (const edit of edits.sort((a, b) => b.start - a.start)) next = next.slice(0, edit.start) + edit.text + next.slice(edit.end);
  $("source").value = next;
  gutter();
  showUnsaved();
  if ((await saveSource()) !== true) { say("Not saved: see the editor.", true); return; }
  // The file saved is the subject's new version (the server read it before answering): its defaults are the
  // fields' values, so the fields are emptied and the picture asked for again, the same.
  await loadState();
  studio.subject = currentSubject();
  // (By name: the page may have built the form again since, when the server said the file changed.)
  for (const name of written) {
    const input = name.startsWith("--") ? document.querySelector(`#options [name="${CSS.escape(name.slice(2))}"]`) : $(name);
    if (input) { input.value = ""; input.dispatchEvent(new Event("input")); }
  }
  buildForm();
  await refresh();
  say(`Written into ${s.name}: ${written.join(", ")}`
    + (kept.length ? `; not ${kept.join(", ")} (computed in the file, or no value it takes)` : "") + ".");
  studio.defaultsWritten = (studio.defaultsWritten || 0) + 1;
}
studio.writeDefaults = writeDefaults;

// ---- Errors ---------------------------------------------------------------------------------------------

function showError(error) {
  const body = error.body;
  if (body && body.problems && body.problems.length) { showProblems(body.problems); return; }
  $("status").textContent = error.message;
  $("status").className = "error";
}
function clearError() {
  if ($("status").className === "error") { $("status").textContent = ""; $("status").className = ""; }
}

// ---- Command and render ---------------------------------------------------------------------------------

let commandTimer = null;
function updateCommand() {
  clearTimeout(commandTimer);
  commandTimer = setTimeout(async () => {
    const params = frameParams(studio.frame);
    if (params.frame !== undefined) delete params.frame;
    params.out = $("out").value;
    try { $("command").textContent = (await getJSON("/api/command", params)).command; } catch (error) { $("command").textContent = error.message; }
  }, 50);
}

async function render() {
  const params = settings();
  if (studio.exact !== null && studio.subject.kind === "effect") params.t = studio.exact;
  params.out = $("out").value;
  // A refusal has its own line: the progress of a render that runs (maybe another page's) never covers it.
  $("render-refusal").textContent = "";
  const response = await fetch(url("/api/render", params), { method: "POST" });
  const body = await response.json().catch(() => ({ message: response.statusText }));
  if (!response.ok) { $("render-refusal").textContent = body.message; return; }
  rendering(true);
}
studio.render = render;

/// While a render runs (this page's or another's) Render waits and Cancel shows.
function rendering(on) {
  $("render-button").disabled = on;
  $("cancel").hidden = !on;
  if (on) { $("render-progress").hidden = false; $("render-progress").value = 0; }
}

function renderEvent(e) {
  if (e.type === "render") rendering(true);
  if (e.type === "render" && e.total) { $("render-progress").value = e.done / e.total; $("render-message").textContent = `${e.output}: ${e.done} of ${e.total} frames`; }
  if (e.type === "rendered" || e.type === "failed") {
    $("render-progress").hidden = e.type === "failed";
    $("render-progress").value = 1;
    rendering(false);
    $("render-progress").hidden = e.type === "failed";
    $("render-message").textContent = e.type === "rendered" ? `${e.output}: written, ${e.message}` : `${e.output}: ${e.message}`;
  }
}

// ---- Uploads --------------------------------------------------------------------------------------------

async function upload(file) {
  $("upload-message").textContent = `uploading ${file.name}…`;
  const response = await fetch(url("/api/upload", { name: file.name }), { method: "POST", body: file });
  const body = await response.json().catch(() => ({ message: response.statusText }));
  if (!response.ok) { $("upload-message").textContent = `${file.name}: ${body.message}`; $("upload-message").className = "note error"; return; }
  $("upload-message").className = "note";
  $("upload-message").textContent = `${file.name}: ${body.width}x${body.height}`;
  await loadState();
  $($("upload-slot").value).value = body.id;
  await changed();
}

// ---- Wiring ---------------------------------------------------------------------------------------------

function wire() {
  wireCurveEditor();
  $("subject").addEventListener("change", () => { studio.frame = 0; studio.exact = null; $("options").replaceChildren(); studio.subject = currentSubject(); buildForm(); refresh(); loadSource(); });
  $("source").addEventListener("input", () => {
    gutter();
    // A refusal (the file changed on disk) stays said until the text is loaded again or saved.
    showUnsaved();
  });
  // Leaving the page (closing it, reloading it, going elsewhere) with text not saved asks first.
  addEventListener("beforeunload", (e) => {
    if (!unsavedText()) return;
    e.preventDefault();
    e.returnValue = "";
  });
  $("write-defaults").addEventListener("click", writeDefaults);
  $("source").addEventListener("scroll", scrolled);
  $("editor-save").addEventListener("click", saveSource);
  $("editor-reload").addEventListener("click", () => loadSource({ force: true }));
  $("settings").addEventListener("change", () => changed());
  $("settings").addEventListener("submit", (e) => { e.preventDefault(); changed(); });
  $("scrubber").addEventListener("input", () => { setPlaying(false); studio.shown = goTo(Number($("scrubber").value)); });
  $("play").addEventListener("click", () => setPlaying(!studio.playing));
  $("help-button").addEventListener("click", () => showHelp($("help").hidden));
  $("help-close").addEventListener("click", () => showHelp(false));
  $("back").addEventListener("click", () => { setPlaying(false); goTo(studio.frame - 1); });
  $("forward").addEventListener("click", () => { setPlaying(false); goTo(studio.frame + 1); });
  $("go").addEventListener("click", () => showExact($("progress").value));
  $("progress").addEventListener("keydown", (e) => { if (e.key === "Enter") showExact($("progress").value); });
  $("compare").addEventListener("change", () => {
    $("gles-figure").hidden = !$("compare").checked;
    $("psnr").textContent = "";
    if (!$("compare").checked) { $("difference").checked = false; $("difference-figure").hidden = true; }
    if ($("compare").checked) compare(frameParams(studio.frame));
    setView(studio.view);
  });
  // The difference needs GLES beside the CPU: asking for it asks for that too.
  const differenceChanged = () => {
    if ($("difference").checked) $("compare").checked = true;
    $("gles-figure").hidden = !$("compare").checked;
    $("difference-figure").hidden = !$("difference").checked;
    if ($("compare").checked) compare(frameParams(studio.frame));
    setView(studio.view);
  };
  $("difference").addEventListener("change", differenceChanged);
  $("amplify").addEventListener("change", differenceChanged);
  $("loop-in").addEventListener("click", () => setLoop("in"));
  $("loop-out").addEventListener("click", () => setLoop("out"));
  $("loop-whole").addEventListener("click", () => setLoop(null));
  $("speed").addEventListener("change", () => setSpeed(Number($("speed").value)));
  $("copy").addEventListener("click", async () => {
    try { await navigator.clipboard.writeText($("command").textContent); $("copy").textContent = "Copied"; } catch { $("copy").textContent = "Select and copy"; }
    setTimeout(() => { $("copy").textContent = "Copy the command"; }, 1500);
  });
  $("out").addEventListener("input", updateCommand);
  $("render-button").addEventListener("click", render);
  $("cancel").addEventListener("click", () => fetch(url("/api/render/cancel"), { method: "POST" }));
  $("upload").addEventListener("change", () => { if ($("upload").files[0]) upload($("upload").files[0]); });
  const drop = $("drop");
  drop.addEventListener("dragover", (e) => { e.preventDefault(); drop.classList.add("over"); });
  drop.addEventListener("dragleave", () => drop.classList.remove("over"));
  drop.addEventListener("drop", (e) => { e.preventDefault(); drop.classList.remove("over"); if (e.dataTransfer.files[0]) upload(e.dataTransfer.files[0]); });
  for (const button of document.querySelectorAll("#view button")) button.addEventListener("click", () => setView(button.dataset.view));
  for (const img of document.querySelectorAll("#pictures img")) img.addEventListener("load", () => setView(studio.view));
  addEventListener("resize", () => setView(studio.view));
  document.addEventListener("keydown", keydown);
  // A focused button is pressed when space comes up: not when space plays.
  document.addEventListener("keyup", (e) => { if (e.key === " " && !isTextField(e.target)) e.preventDefault(); });
  const events = new EventSource(url("/api/events"));
  events.onmessage = async (message) => {
    const e = JSON.parse(message.data);
    if (e.type === "changed") {
      await loadState();
      if (studio.subject && e.subject === studio.subject.id) {
        studio.subject = currentSubject();
        buildForm();
        await Promise.all([refresh(), loadSource()]);
        studio.reloads = (studio.reloads || 0) + 1;
      } else if (e.subject === "screens" && studio.subject && studio.subject.kind === "effect") {
        await refresh();   // settings() carries the new screensVersion
        studio.reloads = (studio.reloads || 0) + 1;
      }
    } else {
      renderEvent(e);
    }
  };
  events.onopen = () => { studio.eventsOpen = true; };
}

async function start() {
  wire();
  await loadState();
  studio.subject = currentSubject();
  buildForm();
  await Promise.all([refresh(), loadSource()]);
  studio.ready = true;
  requestAnimationFrame(tick);
}

start().catch(showError);
