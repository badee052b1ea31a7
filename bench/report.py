#!/usr/bin/env python3
"""Turns a segue-bench JSON file into a Markdown table, the issue's speed targets checked, and a chart
(PNG and SVG) of frames/s against resolution per backend and peer.

Usage: bench/report.py RESULTS.json   (writes RESULTS.md, RESULTS.png and RESULTS.svg beside it)
"""
import json
import math
import os
import sys


def load(path):
    with open(path) as f:
        return json.load(f)


def index(results):
    table = {}
    for r in results:
        table[(r["effect"], r["width"], r["height"], r["backend"], r["threads"], r["stage"])] = r
    return table


def fmt(v, digits=1):
    return "-" if v is None else f"{v:.{digits}f}"


def markdown(report):
    results = report["results"]
    t = index(results)
    m = report["machine"]
    sizes = sorted({(r["width"], r["height"]) for r in results}, key=lambda s: s[0] * s[1])
    effects = [e for e in dict.fromkeys(r["effect"] for r in results if r["backend"] not in EXTRA) if e != "-"]
    cores = m["cores"]

    def get(effect, w, h, backend, threads, stage):
        r = t.get((effect, w, h, backend, threads, stage))
        return r["msPerFrame"] if r else None

    machine_line = (f"Measured {report['date']} on {m['host']}: {m['cpu']}, {m['cores']} cores, {m['memoryGiB']} GiB, {m['os']}; "
                    f"{m.get('swift', '?')}; GL: {m.get('gl') or 'none'}; {m.get('pixman') or 'no pixman'}; "
                    f"{(m.get('ffmpeg') or 'no ffmpeg').split(' Copyright')[0]}.")
    if not results:  # whole jobs alone (segue-bench --job)
        return "\n".join([machine_line, *(["", "**Partial:** the run stopped before its last backend."] if report.get("partial") else []),
                          *job_lines(report.get("jobs") or [])]) + "\n"
    lines = [f"Measured {report['date']} on {m['host']}: {m['cpu']}, {m['cores']} cores, {m['memoryGiB']} GiB, {m['os']}; "
             f"{m.get('swift', '?')}; GL: {m.get('gl') or 'none'}; {m.get('pixman') or 'no pixman'}; "
             f"{(m.get('ffmpeg') or 'no ffmpeg').split(' Copyright')[0]}.",
             "Medians of repeated runs (spread in the JSON). fps = frames per second; Mpx/s = megapixels per second; "
             "copy = the time to copy one frame of that size.", "",
             *(["**Partial:** the run stopped before its last size; these are the sizes it finished.", ""]
               if report.get("partial") else []),
             "| size | effect | CPU fps | CPU Mpx/s | CPU 1-thread fps | GLES fps | GLES/CPU | pixman fps | CPU/pixman | xfade fps | CPU/xfade | copy / CPU | CPU+PNG fps | GLES+PNG fps |",
             "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for (w, h) in sizes:
        copy = get("-", w, h, "copy", 1, "copy")
        for e in effects:
            cpu = get(e, w, h, "cpu", cores, "draw+readback")
            cpu1 = get(e, w, h, "cpu", 1, "draw")
            gles = get(e, w, h, "gles", 1, "draw+readback")
            pix = get(e, w, h, "pixman", cores, "draw")
            xf = get(e, w, h, "ffmpeg-xfade", cores, "draw")
            cpng = get(e, w, h, "cpu", cores, "draw+readback+png")
            gpng = get(e, w, h, "gles", 1, "draw+readback+png")
            fps = lambda ms: None if not ms else 1000 / ms
            lines.append("| " + " | ".join([
                f"{w}x{h}", e, fmt(fps(cpu)), fmt(w * h / cpu / 1000 if cpu else None, 0), fmt(fps(cpu1)),
                fmt(fps(gles)), fmt(cpu / gles if cpu and gles else None, 2), fmt(fps(pix)),
                fmt(pix / cpu if pix and cpu else None, 2), fmt(fps(xf)), fmt(xf / cpu if xf and cpu else None, 2),
                fmt(copy / cpu if copy and cpu else None, 2), fmt(fps(cpng)), fmt(fps(gpng))]) + " |")
    lines += ["", "### The targets", "", "| target | measured | met |", "|---|---|---|"]

    def target(name, value, ok):
        lines.append(f"| {name} | {value} | {'yes' if ok else 'no'} |")

    for (w, h) in sizes:
        copy = get("-", w, h, "copy", 1, "copy")
        cpu = get("page-flip", w, h, "cpu", cores, "draw")
        for e in ["page-flip", "spin", "hinge"]:
            c, p = get(e, w, h, "cpu", cores, "draw"), get(e, w, h, "pixman", cores, "draw")
            if (w, h) == (3840, 2160) and c and p:
                target(f"{e} 4K: CPU >= 5x pixman", f"{p / c:.2f}x", p / c >= 5)
        for e in ["door", "hero"]:
            c, p = get(e, w, h, "cpu", cores, "draw"), get(e, w, h, "pixman", cores, "draw")
            if c and p:
                target(f"{e} {w}x{h}: CPU >= 1.5x pixman", f"{p / c:.2f}x", p / c >= 1.5)
        if (w, h) == (3840, 2160) and cpu and copy:
            target("page-flip 4K: CPU within 3x copy", f"{cpu / copy:.2f}x copy", cpu / copy <= 3)
        for e in ["fade", "door", "circle-spread"]:
            c = get(e, w, h, "cpu", cores, "draw")
            if c and copy:
                target(f"{e} {w}x{h}: CPU within 2x copy", f"{c / copy:.2f}x copy", c / copy <= 2)
        c = get("circle-spread", w, h, "cpu", cores, "draw")
        xf = get("circle-spread", w, h, "ffmpeg-xfade", cores, "draw")
        if (w, h) in [(1920, 1080), (3840, 2160)] and c and xf:
            target(f"circle-spread {w}x{h}: CPU >= 5x xfade circleopen", f"{xf / c:.2f}x", xf / c >= 5)
    small, large = (1920, 1080), (7680, 4320)
    for backend, threads, stage in [("cpu", cores, "draw"), ("gles", 1, "draw+readback")]:
        for e in effects:
            a = get(e, *small, backend, threads, stage)
            b = get(e, *large, backend, threads, stage)
            if a and b:
                rate_small, rate_large = small[0] * small[1] / a, large[0] * large[1] / b
                target(f"{backend} {e}: Mpx/s at 8K within 15% of 1080p", f"{rate_large / rate_small * 100:.0f}% of 1080p",
                       abs(rate_large / rate_small - 1) <= 0.15)
    for (w, h) in sizes:
        for e in effects:
            d = get(e, w, h, "gles", 1, "draw")
            r = get(e, w, h, "gles", 1, "readback (synchronous)") or get(e, w, h, "gles", 1, "readback")
            both = get(e, w, h, "gles", 1, "draw+readback")
            if d and r and both:
                slower = max(d, r)
                target(f"GLES {e} {w}x{h}: draw+readback >= 85% of the slower stage's rate",
                       f"{slower / both * 100:.0f}%", slower / both >= 0.85)
    for (w, h) in sizes:
        for e in effects:
            rgba = get(e, w, h, "gles", 1, "draw+readback rgba")
            yuv = get(e, w, h, "gles", 1, "draw+readback yuv420")
            if rgba and yuv and (w, h) in [(1920, 1080), (3840, 2160), (7680, 4320)]:
                target(f"GLES {e} {w}x{h}: 4:2:0 planes >= 2x the frames/s of RGBA", f"{rgba / yuv:.2f}x", rgba / yuv >= 2)
    # The compute path (issue 36): its draw at 4K, its planes against its RGBA, and the better GLES path's draw +
    # readback against the CPU compositor on all cores.
    compute_lines = []
    if any(r["backend"] == "gles-compute" for r in results):
        compute_lines = ["", "### GLES raster against compute (ms per frame)", "",
                         "| size | effect | raster draw | compute draw | raster draw+readback | compute draw+readback | CPU draw | best GLES / CPU |",
                         "|---|---|---|---|---|---|---|---|"]
        for (w, h) in sizes:
            for e in effects:
                rd, cd = get(e, w, h, "gles", 1, "draw"), get(e, w, h, "gles-compute", 1, "draw")
                rb, cb = get(e, w, h, "gles", 1, "draw+readback"), get(e, w, h, "gles-compute", 1, "draw+readback")
                sb = get(e, w, h, "gles-compute-staged", 1, "draw+readback")
                c = get(e, w, h, "cpu", cores, "draw")
                best = min([x for x in (rb, cb, sb) if x] or [None]) if (rb or cb or sb) else None
                # The kernel's own time on the GPU's clock where the bench had one (compute-staged's dispatch
                # writes device memory only); else the wall clock's draw.
                kernel = get(e, w, h, "gles-compute-staged", 1, "gpu draw") or cd
                compute_lines.append("| " + " | ".join([f"{w}x{h}", e, fmt(rd, 3), fmt(cd, 3), fmt(rb, 3), fmt(cb, 3), fmt(c, 3),
                                                         fmt(c / best if c and best else None, 2)]) + " |")
                if (w, h) == (3840, 2160) and kernel:
                    target(f"compute kernel {e} 4K <= 0.15 ms", f"{kernel:.3f} ms", kernel <= 0.15)
                if (w, h) in [(3840, 2160), (7680, 4320)] and best and c:
                    target(f"GLES draw+readback faster than the CPU on all cores, {e} {w}x{h}", f"{c / best:.2f}x", best < c)
        for (w, h) in sizes:
            for e in effects:
                rgba = min([x for x in (get(e, w, h, b, 1, "draw+readback rgba") for b in ("gles-compute", "gles-compute-staged")) if x] or [0]) or None
                yuv = min([x for x in (get(e, w, h, b, 1, "draw+readback yuv420") for b in ("gles-compute", "gles-compute-staged")) if x] or [0]) or None
                if rgba and yuv and (w, h) == (3840, 2160):
                    target(f"compute {e} 4K: 4:2:0 planes >= 2.5x the frames/s of RGBA", f"{rgba / yuv:.2f}x", rgba / yuv >= 2.5)
    pipe = {r["stage"]: r for r in results if r["backend"] == "pipeline"}
    pipeline_lines = []
    if {"png end to end", "png encoder alone", "raw end to end", "draw alone"} <= pipe.keys():
        w, h = pipe["png end to end"]["width"], pipe["png end to end"]["height"]
        png = pipe["png encoder alone"]["msPerFrame"] / pipe["png end to end"]["msPerFrame"]
        raw = pipe["draw alone"]["msPerFrame"] / pipe["raw end to end"]["msPerFrame"]
        def percent(ratio):  # rounded down, so a ratio just under the target does not print as on it
            return f"{math.floor(ratio * 1000) / 10:.1f}%"
        target("pipeline: PNG output >= 90% of the encoder alone", percent(png), png >= 0.9)
        target("pipeline: raw output >= 95% of draw alone", percent(raw), raw >= 0.95)
        def fps(stage):
            r = pipe[stage]
            return f"{1000 / r['msPerFrame']:.1f} ({1000 / r['msMax']:.0f}-{1000 / r['msMin']:.0f})"
        pipeline_lines = ["", f"### The pipeline (circle-spread, {w}x{h}, CPU backend, `segue render` end to end)", "",
                          "End to end is per frame once running: (a run at 240 fps - the same run at 60 fps) / the extra frames, "
                          "so start-up cancels. Medians, with the range over the runs.", "",
                          "| output | end to end fps | alone fps | ratio |", "|---|---|---|---|",
                          f"| PNG frames (level 2) | {fps('png end to end')} | encoder alone {fps('png encoder alone')} | {percent(png)} |",
                          f"| raw RGBA stream | {fps('raw end to end')} | draw alone {fps('draw alone')} | {percent(raw)} |"]
    lines += compute_lines + pipeline_lines
    lines += blur_lines(results)
    lines += png_lines(results, target_lines=lines)
    lines += colour_lines(results)
    lines += chromium_lines(results, cores)
    lines += job_lines(report.get("jobs") or [])
    return "\n".join(lines) + "\n"


def job_lines(jobs):
    """Whole jobs (`segue-bench --job`): frames/s and CPU seconds per output and backend, the same table the
    bench prints (JobBench.markdown)."""
    rows = [j for j in jobs if j.get("framesPerSecond") or j.get("note")]
    if not rows:
        return []
    first = next((j for j in rows if j.get("framesPerSecond")), rows[0])
    out = ["", f"### Whole jobs ({first['frames']} frames at {first['width']}x{first['height']}, a storyboard of catalogue effects)", "",
           "frames/s and seconds of the whole job (screens read, renderer made, frames drawn, converted, encoded and "
           "written); CPU s = user + system of the bench and its children (ffmpeg); x cpu = frames/s over the CPU "
           "backend's for the same output.", "",
           "| output | backend | drew | frames | size | seconds | frames/s | x cpu | CPU s | CPU s / s | note |",
           "|---|---|---|---|---|---|---|---|---|---|---|"]
    for j in rows:
        cpu = next((c.get("framesPerSecond") for c in rows if c["output"] == j["output"] and c["backend"] == "cpu"), None)
        fps, sec, cs = j.get("framesPerSecond"), j.get("seconds"), j.get("cpuSeconds")
        out.append(f"| {j['output']} | {j['backend']} | {j.get('renderer') or '-'} | {j['frames']} | {j['width']}x{j['height']} | "
                   f"{fmt(sec, 2)} | {fmt(fps)} | {fmt(fps / cpu if fps and cpu else None, 2)} | {fmt(cs, 2)} | "
                   f"{fmt(cs / sec if cs is not None and sec else None)} | {(j.get('note') or '').replace('|', chr(92) + '|')} |")
    return out


# Backends of the PNG and end-to-end sections, kept out of the main table and the chart.
EXTRA = {"png-libspng", "png-segue", "segue", "pipeline", "colour-matrix-shaper", "colour-lcms2", "colour-skipped"}


def blur_lines(results):
    """Motion blur's cost per shutter sample, by backend and by where the samples are summed."""
    blur = [r for r in results if r["stage"] == "motion blur per sample"]
    if not blur:
        return []
    out = ["", "### Motion blur, per shutter sample (a frame of 8 samples; ms per sample)", "",
           "| size | effect | backend | how | ms per sample | range |", "|---|---|---|---|---|---|"]
    for r in blur:
        how = (r.get("note") or "").split("; ", 1)[-1]
        out.append(f"| {r['width']}x{r['height']} | {r['effect']} | {r['backend']} | {how} | {r['msPerFrame']:.2f} | "
                   f"{r['msMin']:.2f}-{r['msMax']:.2f} |")
    return out


def colour_lines(results):
    """Issue 46: a 4K Display P3 screen into sRGB by the matrix/shaper path and by lcms2, and sRGB skipped."""
    rows = [r for r in results if r["backend"].startswith("colour-")]
    if not rows:
        return []
    out = ["", "### Colour conversion when an image is read (3840x2160, straight RGBA8; ms per screen)", "",
           "| conversion | path | threads | ms | range | Mpixel/s per core | note |", "|---|---|---|---|---|---|---|"]
    for r in rows:
        rate = r["width"] * r["height"] / 1e3 / r["msPerFrame"] / r["threads"] if r["msPerFrame"] > 0 else 0
        out.append(f"| {r['effect'][7:]} | {r['backend'][7:]} | {r['threads']} | {r['msPerFrame']:.3f} | "
                   f"{r['msMin']:.3f}-{r['msMax']:.3f} | {f'{rate:.0f}' if rate and r['backend'] != 'colour-skipped' else '-'} | {r.get('note') or ''} |")
    return out


def png_lines(results, target_lines):
    out = []
    enc = [r for r in results if r["backend"] in ("png-libspng", "png-segue")]
    if enc:
        w, h = enc[0]["width"], enc[0]["height"]
        inputs = list(dict.fromkeys(r["effect"] for r in enc))
        by = {(r["effect"], r["backend"], r["stage"]): r for r in enc}
        levels = sorted({int(r["stage"].split("L")[-1]) for r in enc if r["backend"] == "png-segue"})
        out += ["", f"### The PNG encoder ({w}x{h}, one thread; ms per frame and KiB per frame)", "",
                "old = libspng 0.7.3 at level 2 (the encoder before); new = Segue's (cheap filter choice, libdeflate, "
                "own chunks), every file decoded and checked equal to its input.", "",
                "| input | old L2 ms | old L2 KiB | new L2 ms | new L2 KiB | speed-up | size |", "|---|---|---|---|---|---|---|"]
        for i in inputs:
            o, n = by.get((i, "png-libspng", "encode L2")), by.get((i, "png-segue", "encode L2"))
            if o and n:
                out.append(f"| {i[4:]} | {o['msPerFrame']:.1f} | {o['bytes'] / 1024:.0f} | {n['msPerFrame']:.1f} | "
                           f"{n['bytes'] / 1024:.0f} | {o['msPerFrame'] / n['msPerFrame']:.2f}x | {n['bytes'] / o['bytes'] * 100:.0f}% |")
        if len(levels) > 1:
            out += ["", "New encoder by `--png-level` (ms / KiB):", "",
                    "| input | " + " | ".join(f"L{l}" for l in levels) + " |", "|---|" + "---|" * len(levels)]
            for i in inputs:
                cells = []
                for l in levels:
                    r = by.get((i, "png-segue", f"encode L{l}"))
                    cells.append(f"{r['msPerFrame']:.1f} / {r['bytes'] / 1024:.0f}" if r else "-")
                out.append(f"| {i[4:]} | " + " | ".join(cells) + " |")
    e2e = {r["backend"]: r for r in results if r["stage"] == "png frames end to end"}
    if "segue" in e2e:
        s = e2e["segue"]
        total = lambda r: r["msPerFrame"] * r["frames"] / 1000
        out += ["", f"### PNG frames on disk, end to end ({s['frames']} circle-spread frames, {s['width']}x{s['height']}, whole commands)", "",
                "| command | total s | range s | total MiB | MiB/frame |", "|---|---|---|---|---|"]
        for name, r in [("segue render --out DIR", s), ("ffmpeg xfade circleopen -f image2 DIR/%05d.png", e2e.get("ffmpeg-xfade"))]:
            if r:
                out.append(f"| {name} | {total(r):.2f} | {r['msMin'] * r['frames'] / 1000:.2f}-{r['msMax'] * r['frames'] / 1000:.2f} | "
                           f"{r['bytes'] / 1048576:.2f} | {r['bytes'] / 1048576 / r['frames']:.3f} |")
        x = e2e.get("ffmpeg-xfade")
        if x:
            speed = x["msPerFrame"] / s["msPerFrame"]
            target_lines.insert(target_lines.index("|---|---|---|") + 1 if "|---|---|---|" in target_lines else len(target_lines),
                                f"| PNG frames end to end: segue >= 2x xfade at no larger total size | {speed:.2f}x, "
                                f"{s['bytes'] / x['bytes'] * 100:.0f}% of xfade's bytes | "
                                f"{'yes' if speed >= 2 and s['bytes'] <= x['bytes'] else 'no'} |")
    return out


def chromium_lines(results, cores):
    """The headless-Chromium peer: its frames/s beside Segue's CPU for the same effects and sizes, or why it was skipped."""
    rows = [r for r in results if r["backend"] == "chromium"]
    frames = [r for r in rows if r["stage"] == "frame+screenshot"]
    startup = next((r for r in rows if r["stage"] == "start-up"), None)
    out = []
    if frames:
        cpu = {(r["effect"], r["width"], r["height"], r["stage"]): r["msPerFrame"] for r in results
               if r["backend"] == "cpu" and r["threads"] == cores}
        fmt_fps = lambda ms: fmt(1000 / ms if ms else None)
        times = lambda slow, fast: f"{slow / fast:.1f}x" if slow and fast else "-"
        out += ["", "### Headless Chromium (the same frames as CSS 3D, a PNG screenshot each)", "",
                f"{frames[0].get('note')}. Frames per second once the page is up; "
                f"start-up (launch to the first screenshot) {startup['msPerFrame'] / 1000:.2f} s, timed apart. "
                "Segue CPU+PNG is the fair match: both end with a PNG in memory." if startup else
                f"{frames[0].get('note')}.", "",
                "| size | effect | Chromium fps | KiB/frame | Segue CPU fps | Segue CPU faster | Segue CPU+PNG fps | Segue CPU+PNG faster |",
                "|---|---|---|---|---|---|---|---|"]
        for r in sorted(frames, key=lambda r: r["width"] * r["height"]):
            c = cpu.get((r["effect"], r["width"], r["height"], "draw+readback"))
            p = cpu.get((r["effect"], r["width"], r["height"], "draw+readback+png"))
            ms = r["msPerFrame"]
            out.append(f"| {r['width']}x{r['height']} | {r['effect']} | {fmt_fps(ms)} | {fmt(r.get('bytes', 0) / 1024, 0)} | "
                       f"{fmt_fps(c)} | {times(ms, c)} | {fmt_fps(p)} | {times(ms, p)} |")
    for r in rows:
        if r["stage"] == "skipped":
            out += ["", f"Headless Chromium: {r.get('note')}"]
    return out


def chart(report, base):
    if not [r for r in report["results"] if r["backend"] not in EXTRA and r["stage"] != "png frames end to end"]:
        return False  # figures outside the chart alone (--colour-only)
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    results = report["results"]
    cores = report["machine"]["cores"]
    results = [r for r in results if r["backend"] not in EXTRA and r["stage"] != "png frames end to end"]
    effects = [e for e in dict.fromkeys(r["effect"] for r in results) if e != "-"]
    series = [("cpu", cores, "draw+readback", f"Segue CPU ({cores} threads)", "C0", "o-"),
              ("cpu", 1, "draw", "Segue CPU (1 thread)", "C0", "o:"),
              ("gles", 1, "draw+readback", "Segue GLES (draw + readback)", "C3", "s-"),
              ("pixman", cores, "draw", f"pixman ({cores} threads)", "C2", "^--"),
              ("ffmpeg-xfade", cores, "draw", "ffmpeg xfade", "C1", "v--"),
              ("chromium", cores, "frame+screenshot", "headless Chromium (CSS 3D, PNG screenshot)", "C4", "D--")]
    fig, axes = plt.subplots(1, len(effects), figsize=(3.6 * len(effects), 3.8), sharey=True, squeeze=False)
    copies = {(r["width"], r["height"]): r["msPerFrame"] for r in results if r["backend"] == "copy"}
    for ax, effect in zip(axes[0], effects):
        for backend, threads, stage, label, color, style in series:
            points = sorted((r["width"] * r["height"] / 1e6, 1000 / r["msPerFrame"]) for r in results
                            if r["effect"] == effect and r["backend"] == backend and r["threads"] == threads
                            and r["stage"] == stage and r["msPerFrame"] > 0)
            if points:
                ax.plot([p[0] for p in points], [p[1] for p in points], style, color=color, label=label, markersize=4)
        cp = sorted((w * h / 1e6, 1000 / ms) for (w, h), ms in copies.items() if ms > 0)
        if cp:
            ax.plot([p[0] for p in cp], [p[1] for p in cp], "k-", alpha=0.3, label="copy one frame")
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_title(effect)
        ax.set_xlabel("megapixels per frame")
        ax.grid(True, which="both", alpha=0.2)
    axes[0][0].set_ylabel("frames per second")
    handles, labels = [], []
    for ax in axes[0]:
        for h, l in zip(*ax.get_legend_handles_labels()):
            if l not in labels:
                handles.append(h)
                labels.append(l)
    fig.legend(handles, labels, loc="lower center", ncol=len(labels), fontsize=8, frameon=False)
    fig.suptitle(f"Segue frames/s against resolution ({report['machine']['cpu']}, {cores} cores)", fontsize=10)
    fig.tight_layout(rect=(0, 0.08, 1, 0.95))
    fig.savefig(base + ".png", dpi=110)
    fig.savefig(base + ".svg")


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: bench/report.py RESULTS.json")
    path = sys.argv[1]
    report = load(path)
    base = os.path.splitext(path)[0]
    with open(base + ".md", "w") as f:
        f.write(markdown(report))
    if not report["results"]:  # whole jobs alone (--job): a table, no chart
        print(f"wrote {base}.md")
        return
    try:
        if chart(report, base) is False:
            print(f"wrote {base}.md")
            return
    except ImportError:
        sys.exit("bench/report.py: matplotlib is missing (apt-get install python3-matplotlib)")
    print(f"wrote {base}.md, {base}.png and {base}.svg")


if __name__ == "__main__":
    main()
