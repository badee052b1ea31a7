"""segue studio in a real browser: Debian's Chromium, headless, driven by Selenium (make test-studio).

Each test starts from the page as a person sees it and checks what they would: pictures byte-equal to
`segue render`, a saved file reaching the page within a second, problems at their JSON paths, uploads drawn
and refused, the token, paths that must never reach a file, and how fast scrubbing is, measured by the page.

Environment: SEGUE (the segue binary under test), SEGUE_STUDIO_SCREENSHOTS (a directory: the page's main
states are saved there as PNGs).
"""
import base64
import hashlib
import http.client
import json
import math
import os
import re
import shutil
import signal
import struct
import subprocess
import tempfile
import time
import unittest
import urllib.parse
import zlib

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.actions.action_builder import ActionBuilder
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select, WebDriverWait

SEGUE = os.path.abspath(os.environ.get("SEGUE", ".build-release/release/segue"))
SHOTS = os.environ.get("SEGUE_STUDIO_SCREENSHOTS")
HERE = os.path.dirname(os.path.abspath(__file__))
# A saved change must reach the page within this (the issue's figure), measured from the write.
RELOAD_SECONDS = 1.0
# Scrubbing a 375x667 effect must show at least this many frames a second, measured by the page.
SCRUB_FPS = 30.0
# And the storyboard of two 750x1334 screens (test_35), first pass: the canvas's raw frames measured 67-100 on
# the 2-core VM at load 3.8-5 (PNGs 27-50 in the same runs; CI measured 41.2 with PNGs at load 2.4), and
# 36-102 at load 7-10 beside other builds: a floor for CI, where the load is about 2.4.
PHONE_SCRUB_FPS = 45.0

SLIDE_UP = {
    "name": "slide-up",
    "summary": "the next screen slides up over the current one",
    "source": "Tests/Studio: a test effect",
    "duration": 0.4,
    "curve": "ease-out",
    "options": [{"name": "fade", "type": "number", "default": 0.4, "range": "unit",
                 "help": "how far the first screen fades"}],
    "layers": [
        {"content": "from", "opacity": "1 - fade * e"},
        {"content": "to", "transform": [{"translate": "[0, H * (1 - e)]"}]},
    ],
    "back": "reverse",
}

STORY = {
    "fps": 20,
    "screens": {"a": "sample:home", "b": "sample:detail"},
    "timeline": [
        {"hold": "a", "duration": 0.3},
        {"transition": "door", "from": "a", "to": "b", "duration": 0.5},
        {"hold": "b", "duration": 0.2},
    ],
}


def png_header_only(width, height):
    """A PNG whose header claims width x height (its data is a few bytes): a file that lies about its size."""
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 6, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(b"\0" * 64)) + chunk(b"IEND", b""))


class Studio:
    """A `segue studio` process in its own directory, and the URL it printed."""

    def __init__(self, directory, *files):
        self.directory = directory
        self.process = subprocess.Popen([SEGUE, "studio", "--port", "0", *files], cwd=directory,
                                        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                        start_new_session=True)
        line = self.process.stdout.readline()
        match = re.search(r"(http://[^ ]+)", line)
        if not match:
            self.stop()
            raise RuntimeError(f"segue studio printed no URL: {line!r} {self.process.stderr.read()!r}")
        self.url = match.group(1).strip()
        parts = urllib.parse.urlsplit(self.url)
        self.host, self.port = parts.hostname, parts.port
        self.token = urllib.parse.parse_qs(parts.query)["token"][0]

    def request(self, path, method="GET", body=None):
        """A raw request (the path as given, not normalised): status and body."""
        connection = http.client.HTTPConnection(self.host, self.port, timeout=30)
        connection.request(method, path, body=body)
        response = connection.getresponse()
        data = response.read()
        connection.close()
        return response.status, data

    def stop(self):
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGINT)
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait()
        self.process.stdout.close()
        self.process.stderr.close()


def png_pixels(data):
    """A PNG's samples as RGBA bytes, as its file has them (no colour management): (width, height, bytes). Reads
    what segue writes: 8-bit RGB or RGBA, not interlaced."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    at, idat = 8, b""
    while at < len(data):
        length, kind = struct.unpack(">I4s", data[at:at + 8])
        body = data[at + 8:at + 8 + length]
        if kind == b"IHDR":
            width, height, depth, colour, _, _, interlace = struct.unpack(">IIBBBBB", body)
            assert depth == 8 and colour in (2, 6) and interlace == 0, f"depth {depth}, colour type {colour}"
        elif kind == b"IDAT":
            idat += body
        at += 12 + length
    raw = zlib.decompress(idat)
    bpp = 4 if colour == 6 else 3
    stride = width * bpp
    rows, previous = [], bytearray(stride)
    for y in range(height):
        kind, row = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = row[i - bpp] if i >= bpp else 0
            b = previous[i]
            c = previous[i - bpp] if i >= bpp else 0
            if kind == 1:
                row[i] = (row[i] + a) & 0xFF
            elif kind == 2:
                row[i] = (row[i] + b) & 0xFF
            elif kind == 3:
                row[i] = (row[i] + (a + b) // 2) & 0xFF
            elif kind == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                row[i] = (row[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 0xFF
        rows.append(bytes(row))
        previous = row
    pixels = b"".join(rows)
    if bpp == 3:
        rgba = bytearray(width * height * 4)
        rgba[0::4], rgba[1::4], rgba[2::4] = pixels[0::3], pixels[1::3], pixels[2::3]
        rgba[3::4] = b"\xff" * (width * height)
        pixels = bytes(rgba)
    return width, height, pixels


def render(directory, *arguments):
    """`segue render ... --out` a PNG in `directory`; its bytes."""
    out = os.path.join(directory, "expected.png")
    subprocess.run([SEGUE, "render", *arguments, "--backend", "cpu", "--quiet", "--out", out], cwd=directory, check=True)
    with open(out, "rb") as f:
        data = f.read()
    os.unlink(out)
    return data


def restore(path, value):
    """Writes `value` back to the shared file `path` as the class wrote it, unless it holds it already: a test
    that changes one does this in `finally`, so that a failed assertion leaves the next test its file."""
    text = json.dumps(value, indent=2)
    with open(path) as f:
        if f.read() == text:
            return
    with open(path, "w") as f:
        f.write(text)


def browser():
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for argument in ["--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu", "--window-size=1400,1000"]:
        options.add_argument(argument)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    return webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)


class StudioTests(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.directory = tempfile.mkdtemp(prefix="segue-studio-")
        cls.effect = os.path.join(cls.directory, "slide-up.json")
        with open(cls.effect, "w") as f:
            json.dump(SLIDE_UP, f, indent=2)
        with open(os.path.join(cls.directory, "story.json"), "w") as f:
            json.dump(STORY, f, indent=2)
        os.symlink("/etc", os.path.join(cls.directory, "etc-link"))
        cls.catalogue = Studio(cls.directory)
        cls.files = Studio(cls.directory, "slide-up.json", "story.json")
        cls.driver = browser()

    @classmethod
    def tearDownClass(cls):
        cls.driver.quit()
        cls.catalogue.stop()
        cls.files.stop()
        shutil.rmtree(cls.directory, ignore_errors=True)

    # ---- helpers -----------------------------------------------------------------------------------------

    def open(self, studio, subject=None):
        self.console_errors()  # what earlier tests' deliberate refusals logged is theirs
        # Text an earlier test left unsaved in the editor would have the page ask before it is left.
        self.driver.execute_script("""const t = document.getElementById('source');
            if (t && window.studio && window.studio.editor) t.value = window.studio.editor.loaded;""")
        self.driver.get(studio.url)
        self.wait(lambda d: d.execute_script("return window.studio && window.studio.ready === true"), 30)
        self.driver.execute_script("document.getElementById('play').click()")  # paused: the tests drive it
        if subject:
            Select(self.driver.find_element(By.ID, "subject")).select_by_value(subject)
            self.wait(lambda d: d.execute_script("return window.studio.subject.id") == subject)
            self.settle()

    def wait(self, condition, seconds=20):
        return WebDriverWait(self.driver, seconds, poll_frequency=0.02).until(condition)

    def settle(self):
        """Waits until the picture on show answers the newest request."""
        time.sleep(0.1)
        self.wait(lambda d: d.execute_script("return !window.studio || window.studio.lastFrame !== null"))

    def shown_png(self):
        """The PNG of the picture on show: what "Download this frame" saves (the canvas holds its pixels, raw)."""
        b64 = self.driver.execute_async_script("""
            const done = arguments[0];
            fetch(window.studio.shownKey).then((r) => r.arrayBuffer()).then((buffer) => {
              const bytes = new Uint8Array(buffer);
              let s = ""; for (let i = 0; i < bytes.length; i++) s += String.fromCharCode(bytes[i]);
              done(btoa(s));
            });""")
        return base64.b64decode(b64)

    def canvas_pixels(self):
        """The picture on show as the page holds it: the canvas's size, its colour space, and the SHA-256 of its
        pixels read back in that space (getImageData: straight-alpha RGBA)."""
        return self.driver.execute_async_script("""
            const done = arguments[0], canvas = document.getElementById('frame');
            const context = canvas.getContext('2d', { colorSpace: canvas.dataset.space });
            const space = context.getContextAttributes().colorSpace || 'srgb';
            const data = context.getImageData(0, 0, canvas.width, canvas.height, { colorSpace: space }).data;
            crypto.subtle.digest('SHA-256', data).then((digest) => done({ width: canvas.width, height: canvas.height, space,
              sha256: [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('') }));""")

    def assert_canvas_holds(self, png, space="srgb"):
        """The canvas on show holds `png`'s pixels byte for byte (an opaque frame: straight and premultiplied
        alpha are the same bytes), in the space the PNG is in."""
        width, height, pixels = png_pixels(png)
        self.assertTrue(all(a == 255 for a in pixels[3::4]), "the frame is opaque")
        shown = self.canvas_pixels()
        self.assertEqual((shown["width"], shown["height"], shown["space"]), (width, height, space))
        self.assertEqual(shown["sha256"], hashlib.sha256(pixels).hexdigest(), "the canvas's pixels are the PNG's")

    def show_progress(self, t):
        field = self.driver.find_element(By.ID, "progress")
        field.clear()
        field.send_keys(str(t))
        self.driver.find_element(By.ID, "go").click()
        self.wait(lambda d: f"t={t}" in (d.execute_script("return window.studio.shownKey") or ""))

    def screenshot(self, name):
        if SHOTS:
            os.makedirs(SHOTS, exist_ok=True)
            self.driver.save_screenshot(os.path.join(SHOTS, f"studio-{name}.png"))

    def console_errors(self):
        return [e for e in self.driver.get_log("browser") if e["level"] == "SEVERE"]

    # ---- tests -------------------------------------------------------------------------------------------

    def test_01_page_loads_without_console_errors(self):
        self.open(self.catalogue)
        names = [o.get_attribute("value") for o in Select(self.driver.find_element(By.ID, "subject")).options]
        self.assertIn("effect:door", names)
        errors = self.console_errors()
        self.assertEqual(errors, [], "\n".join(e["message"] for e in errors))
        self.screenshot("catalogue")

    def test_02_progress_half_is_segue_render_byte_for_byte(self):
        self.open(self.catalogue, "effect:door")
        self.show_progress(0.5)
        expected = render(self.directory, "door", "--from", "sample:home", "--to", "sample:detail", "--progress", "0.5")
        self.assertEqual(self.shown_png(), expected)
        # The picture on show is a canvas the raw frame was put into: its pixels are the PNG's.
        self.assert_canvas_holds(expected)
        self.assertIn("--progress 0.5", self.driver.find_element(By.ID, "command").text)

    def test_03_an_option_changes_the_picture_to_that_options_frame(self):
        self.open(self.catalogue, "effect:door")
        self.show_progress(0.5)
        before = self.shown_png()
        zoom = self.driver.find_element(By.CSS_SELECTOR, "#options input[name=zoom]")
        zoom.send_keys("0.3")
        self.driver.execute_script("document.getElementById('settings').dispatchEvent(new Event('change'))")
        self.wait(lambda d: "o.zoom=0.3" in (d.execute_script("return window.studio.shownKey") or ""))
        after = self.shown_png()
        self.assertNotEqual(after, before)
        expected = render(self.directory, "door", "--from", "sample:home", "--to", "sample:detail", "--progress", "0.5", "--zoom", "0.3")
        self.assertEqual(after, expected)
        self.assertIn("--zoom 0.3", self.driver.find_element(By.ID, "command").text)

    def test_04_a_saved_edit_reaches_the_page_within_a_second_and_a_broken_one_shows_its_problem(self):
        self.open(self.files, "file:0")
        self.show_progress(0.5)
        before = self.shown_png()
        reloads = self.driver.execute_script("return window.studio.reloads || 0")
        try:
            edited = dict(SLIDE_UP, layers=[{"content": "from", "opacity": "1 - fade * e"},
                                            {"content": "to", "transform": [{"translate": "[H * (1 - e), 0]"}]}])
            with open(self.effect, "w") as f:
                json.dump(edited, f, indent=2)
            written = time.monotonic()
            self.wait(lambda d: d.execute_script("return (window.studio.reloads || 0)") > reloads
                      and d.execute_script("return window.studio.lastFrame !== null"), 5)
            self.wait(lambda d: self.shown_png() != before, 5)
            elapsed = time.monotonic() - written
            print(f"studio: a saved edit reached the page in {elapsed * 1000:.0f} ms")
            self.assertLess(elapsed, RELOAD_SECONDS)
            self.assertEqual(self.shown_png(), render(self.directory, "./slide-up.json", "--from", "sample:home", "--to", "sample:detail", "--progress", "0.5"))
            good = self.shown_png()

            broken = dict(edited, options=[dict(SLIDE_UP["options"][0], range="sideways")])
            with open(self.effect, "w") as f:
                json.dump(broken, f, indent=2)
            written = time.monotonic()
            self.wait(lambda d: not d.find_element(By.ID, "problems").get_attribute("hidden"), 5)
            elapsed = time.monotonic() - written
            print(f"studio: a broken edit's problem reached the page in {elapsed * 1000:.0f} ms")
            self.assertLess(elapsed, RELOAD_SECONDS)
            # (The watcher may first read the file between its truncation and its writing, and say so: the
            # problem of the whole file follows.)
            self.wait(lambda d: "$.options[0].range" in d.find_element(By.ID, "problem-list").text, 5)
            self.assertEqual(self.shown_png(), good, "the last good picture stays beside the problem")
            self.screenshot("problem")
            with open(self.effect, "w") as f:
                json.dump(SLIDE_UP, f, indent=2)
            self.wait(lambda d: d.find_element(By.ID, "problems").get_attribute("hidden"), 5)
        finally:
            restore(self.effect, SLIDE_UP)

    def upload(self, path):
        field = self.driver.find_element(By.ID, "upload")
        self.driver.execute_script("arguments[0].style.display = 'block'", field)
        field.send_keys(path)

    def test_05_an_upload_is_drawn(self):
        self.open(self.catalogue, "effect:fade")
        screen = os.path.join(self.directory, "red.png")
        with open(screen, "wb") as f:
            f.write(render(self.directory, "circle-spread", "--from", "sample:detail", "--to", "sample:home", "--progress", "0.3"))
        Select(self.driver.find_element(By.ID, "upload-slot")).select_by_value("from")
        self.upload(screen)
        self.wait(lambda d: d.find_element(By.ID, "from").get_attribute("value").startswith("upload:"))
        self.show_progress(0.25)
        self.wait(lambda d: "from=upload" in (d.execute_script("return window.studio.shownKey") or ""))
        self.assertEqual(self.shown_png(), render(self.directory, "fade", "--from", "red.png", "--to", "sample:detail", "--progress", "0.25"))
        self.screenshot("upload")

    def test_05b_a_command_lines_screen_saved_again_reaches_the_page_within_a_second(self):
        screen = os.path.join(self.directory, "from.png")
        with open(screen, "wb") as f:
            f.write(render(self.directory, "fade", "--from", "sample:home", "--to", "sample:detail", "--progress", "0"))
        studio = Studio(self.directory, "--from", "from.png")
        try:
            self.open(studio, "effect:fade")
            self.show_progress(0)
            before = self.shown_png()
            with open(screen + ".new", "wb") as f:
                f.write(render(self.directory, "fade", "--from", "sample:home", "--to", "sample:detail", "--progress", "1"))
            os.replace(screen + ".new", screen)
            written = time.monotonic()
            self.wait(lambda d: d.execute_script("return window.studio.lastFrame !== null") and self.shown_png() != before, 5)
            elapsed = time.monotonic() - written
            print(f"studio: a --from image saved again reached the page in {elapsed * 1000:.0f} ms")
            self.assertLess(elapsed, RELOAD_SECONDS)
            self.assertEqual(self.shown_png(), render(self.directory, "fade", "--from", "from.png", "--to", "sample:detail", "--progress", "0"))
        finally:
            studio.stop()

    def test_06_a_20000x20000_png_is_refused_with_a_message(self):
        self.open(self.catalogue, "effect:fade")
        big = os.path.join(self.directory, "huge.png")
        with open(big, "wb") as f:
            f.write(png_header_only(20000, 20000))
        self.upload(big)
        self.wait(lambda d: "huge.png:" in d.find_element(By.ID, "upload-message").text)
        message = self.driver.find_element(By.ID, "upload-message").text
        self.assertIn("20000x20000", message)
        self.assertIn("over the limit", message)

    def test_07_a_request_without_the_token_gets_403(self):
        for path in ["/", "/api/state", "/api/frame?subject=effect:door&t=0.5", "/studio.js", "/api/events",
                     "/api/state?token=" + "0" * len(self.catalogue.token)]:
            status, _ = self.catalogue.request(path)
            self.assertEqual(status, 403, path)
        status, _ = self.catalogue.request("/api/upload?name=x.png", "POST", png_header_only(10, 10))
        self.assertEqual(status, 403)

    def test_08_paths_never_reach_the_file_system(self):
        token = "token=" + self.catalogue.token
        for path in ["/../etc/passwd", "/../../../../etc/passwd", "/%2e%2e/%2e%2e/etc/passwd", "/..%2f..%2fetc%2fpasswd",
                     "//etc/passwd", "/etc/passwd", "/etc-link/passwd", "/slide-up.json", "/story.json",
                     "/%2fetc%2fpasswd", "/studio.js%00.png"]:
            status, body = self.catalogue.request(path + "?" + token)
            self.assertEqual(status, 404, path)
            self.assertNotIn(b"root:", body)

    def test_09_scrubbing_holds_30_frames_a_second(self):
        self.open(self.catalogue, "effect:door")
        # A duration and frame rate no other test asked for: every frame is drawn by the server during the run.
        duration = self.driver.find_element(By.ID, "duration")
        duration.send_keys("1.37")
        self.driver.execute_script("document.getElementById('settings').dispatchEvent(new Event('change'))")
        self.wait(lambda d: "duration=1.37" in (d.execute_script("return window.studio.shownKey") or ""))
        self.wait(lambda d: d.execute_script("return window.studio.timeline.count") > 60)
        cold = self.driver.execute_async_script("const done = arguments[0]; window.studio.measureScrub().then(done)")
        warm = self.driver.execute_async_script("const done = arguments[0]; window.studio.measureScrub().then(done)")
        print(f"studio: scrubbing {cold['frames']} frames of door at 375x667: first pass {cold['fps']:.1f} frames/s "
              f"(each drawn by the server; per frame {cold['fetchMs']:.1f} ms request to bytes, {cold['drawMs']:.1f} ms "
              f"drawing into the canvas), again {warm['fps']:.1f} frames/s ({warm['fetchMs']:.1f} ms, {warm['drawMs']:.1f} ms)")
        self.assertGreaterEqual(cold["fps"], SCRUB_FPS)
        self.assertGreaterEqual(warm["fps"], SCRUB_FPS)

    def test_10_a_storyboard_shows_its_timeline_and_scrubs_across_it(self):
        self.open(self.files, "file:1")
        steps = self.driver.find_elements(By.CSS_SELECTOR, "#strip .step")
        self.assertEqual([s.text for s in steps], ["hold", "door", "hold"])
        steps[1].click()
        self.wait(lambda d: "frame=6" in (d.execute_script("return window.studio.shownKey") or ""))
        frames = os.path.join(self.directory, "story-frames")
        subprocess.run([SEGUE, "batch", "story.json", "--out", frames, "--backend", "cpu", "--quiet"], cwd=self.directory, check=True)
        with open(os.path.join(frames, "frame_00006.png"), "rb") as f:
            shown = f.read()
            self.assertEqual(self.shown_png(), shown)
        self.screenshot("storyboard")
        # A broken storyboard shows its problem at its path beside the last good picture, and goes when fixed.
        story = os.path.join(self.directory, "story.json")
        try:
            broken = dict(STORY, timeline=[dict(STORY["timeline"][0], duration=-1)] + STORY["timeline"][1:])
            with open(story, "w") as f:
                json.dump(broken, f, indent=2)
            self.wait(lambda d: "$.timeline[0].duration" in d.find_element(By.ID, "problem-list").text, 5)
            self.assertFalse(self.driver.find_element(By.ID, "problems").get_attribute("hidden"))
            self.assert_canvas_holds(shown)   # the last good picture, still on show
            with open(story, "w") as f:
                json.dump(STORY, f, indent=2)
            self.wait(lambda d: d.find_element(By.ID, "problems").get_attribute("hidden"), 5)
        finally:
            restore(story, STORY)

    def test_11_render_writes_inside_the_directory_and_replaces_nothing(self):
        self.open(self.catalogue, "effect:fade")
        out = self.driver.find_element(By.ID, "out")
        out.clear()
        out.send_keys("fade-frames")
        self.driver.find_element(By.ID, "render-button").click()
        self.wait(lambda d: "written" in d.find_element(By.ID, "render-message").text, 60)
        self.assertTrue(os.path.exists(os.path.join(self.directory, "fade-frames", "frame_00000.png")))
        self.driver.find_element(By.ID, "render-button").click()
        self.wait(lambda d: "exists" in d.find_element(By.ID, "render-refusal").text)
        for name in ["../escape", "/tmp/escape", ".hidden"]:
            status, body = self.catalogue.request(f"/api/render?subject=effect:fade&out={urllib.parse.quote(name)}&token={self.catalogue.token}", "POST")
            self.assertEqual(status, 422, name)
        self.assertFalse(os.path.exists(os.path.join(os.path.dirname(self.directory), "escape")))

    def test_12_gles_beside_the_cpu_with_their_psnr(self):
        self.open(self.catalogue, "effect:circle-spread")
        self.show_progress(0.5)
        self.driver.find_element(By.ID, "compare").click()
        self.wait(lambda d: d.find_element(By.ID, "psnr").text != "", 60)
        text = self.driver.find_element(By.ID, "psnr").text
        self.assertRegex(text, r"PSNR [0-9.]+ dB|identical|unavailable")
        if "PSNR" in text:
            self.assertGreater(float(re.search(r"PSNR ([0-9.]+)", text).group(1)), 40)
        self.screenshot("compare")
        errors = self.console_errors()
        self.assertEqual(errors, [], "\n".join(e["message"] for e in errors))


    # ---- issue 47: broken states found by trying the page ---------------------------------------------------

    def frame_key(self):
        return self.driver.execute_script("return window.studio.shownKey") or ""

    def set_field(self, element, text):
        element.clear()
        element.send_keys(text)
        self.driver.execute_script("document.getElementById('settings').dispatchEvent(new Event('change'))")

    def test_13_spaces_in_fields_are_spaces_not_plus(self):
        self.open(self.catalogue, "effect:circle-spread")
        self.show_progress(0.5)
        self.set_field(self.driver.find_element(By.CSS_SELECTOR, "#options input[name=center]"), "110, 150")
        self.wait(lambda d: "110" in d.find_element(By.ID, "command").text)
        command = self.driver.find_element(By.ID, "command").text
        self.assertIn("--center '110, 150'", command)
        self.assertNotIn("+", command)
        self.set_field(self.driver.find_element(By.ID, "curve"), "cubic(0.4, 0, 0.2, 1)")
        self.wait(lambda d: "cubic" in d.find_element(By.ID, "command").text)
        self.set_field(self.driver.find_element(By.ID, "size"), "300 x 534")
        self.wait(lambda d: "--size 300x534" in d.find_element(By.ID, "command").text)
        self.wait(lambda d: "size=300" in self.frame_key())
        self.assertNotIn("+", self.driver.find_element(By.ID, "status").text)
        self.assertEqual(self.shown_png(), render(self.directory, "circle-spread", "--from", "sample:home", "--to", "sample:detail",
                                                  "--progress", "0.5", "--center", "110,150", "--curve", "cubic(0.4,0,0.2,1)", "--size", "300x534"))

    def test_14_a_storyboard_made_invalid_json_shows_its_problem(self):
        self.open(self.files, "file:1")
        story = os.path.join(self.directory, "story.json")
        try:
            with open(story, "w") as f:
                f.write(json.dumps(STORY, indent=2)[:-20])
            self.wait(lambda d: not d.find_element(By.ID, "problems").get_attribute("hidden"), 5)
            self.assertNotEqual(self.driver.find_element(By.ID, "problem-list").text.strip(), "")
            self.assertTrue(self.driver.find_elements(By.CSS_SELECTOR, "#strip .step"), "the strip keeps its steps")
            status, _ = self.files.request(f"/api/timeline?subject=file:1&token={self.files.token}")
            self.assertEqual(status, 422)
            # The state lists it once the watcher has read the file (the page may have had it from the timeline).
            def listed(_):
                return json.loads(self.files.request(f"/api/state?token={self.files.token}")[1])["subjects"][1]["problems"] != []
            self.wait(listed, 5)
            # The timeline's 422 is the network's to log; the script throws nothing.
            errors = [e for e in self.console_errors() if e["source"] != "network"]
            self.assertEqual(errors, [], "\n".join(e["message"] for e in errors))
            with open(story, "w") as f:
                json.dump(STORY, f, indent=2)
            self.wait(lambda d: d.find_element(By.ID, "problems").get_attribute("hidden"), 5)
        finally:
            restore(story, STORY)

    def test_15_files_broken_at_start_are_what_they_are_once_mended(self):
        directory = tempfile.mkdtemp(prefix="segue-studio-broken-")
        story = os.path.join(directory, "story.json")
        effect = os.path.join(directory, "fx.json")
        with open(story, "w") as f:
            f.write(json.dumps(STORY, indent=2)[:-20])
        with open(effect, "w") as f:
            json.dump(dict(SLIDE_UP, options=[dict(SLIDE_UP["options"][0], range="sideways")]), f, indent=2)
        studio = Studio(directory, "story.json", "fx.json")
        try:
            self.open(studio)  # file:0, which has no picture to settle on
            self.wait(lambda d: not d.find_element(By.ID, "problems").get_attribute("hidden"), 5)
            problems = self.driver.find_element(By.ID, "problem-list").text
            self.assertNotIn("unknown key", problems)
            self.assertNotIn('missing "name"', problems)
            # No picture has been drawn: nothing says "the last good one".
            self.assertFalse(self.driver.find_element(By.CSS_SELECTOR, "#problems .note").is_displayed())
            self.screenshot("broken-at-start")
            with open(story, "w") as f:
                json.dump(STORY, f, indent=2)
            self.wait(lambda d: [s.text for s in d.find_elements(By.CSS_SELECTOR, "#strip .step")] == ["hold", "door", "hold"], 5)
            self.wait(lambda d: d.find_element(By.ID, "command").text.startswith("segue batch"), 5)
            self.wait(lambda d: d.find_element(By.ID, "problems").get_attribute("hidden"), 5)
            Select(self.driver.find_element(By.ID, "subject")).select_by_value("file:1")
            self.wait(lambda d: "$.options[0].range" in d.find_element(By.ID, "problem-list").text, 5)
            self.assertFalse(self.driver.find_element(By.CSS_SELECTOR, "#problems .note").is_displayed())
        finally:
            studio.stop()
            shutil.rmtree(directory, ignore_errors=True)

    def test_16_a_storyboards_filmstrip_click_shows_that_frame(self):
        self.open(self.files, "file:1")
        count = self.driver.execute_script("return window.studio.timeline.count")
        figures = self.driver.find_elements(By.CSS_SELECTOR, "#filmstrip figure")
        # A figure is shown once its frame is drawn (on a debug build, 0.3 s a frame, one after another).
        self.wait(lambda d: figures[2].is_displayed() and figures[4].is_displayed())
        figures[2].click()
        self.wait(lambda d: f"frame={round(0.5 * (count - 1))}&" in self.frame_key())
        figures[4].click()
        self.wait(lambda d: f"frame={count - 1}&" in self.frame_key())
        self.assertEqual(int(self.driver.find_element(By.ID, "scrubber").get_attribute("value")), count - 1)

    def test_17_an_effect_missing_a_required_option_shows_no_stale_picture(self):
        self.open(self.catalogue, "effect:fade")
        Select(self.driver.find_element(By.ID, "subject")).select_by_value("effect:hero")
        self.wait(lambda d: "from-rect" in d.find_element(By.ID, "status").text, 10)
        self.assertFalse(self.driver.find_element(By.ID, "frame").is_displayed(), "fade's picture is not shown as hero's")
        self.assertFalse(self.driver.execute_script("return window.studio.playing"))
        time.sleep(0.5)
        for image in self.driver.find_elements(By.CSS_SELECTOR, "#filmstrip img"):
            self.assertTrue(not image.is_displayed() or image.get_attribute("alt") != "failed")
        self.screenshot("required-option")
        self.set_field(self.driver.find_element(By.CSS_SELECTOR, "#options input[name=from-rect]"), "20,20,100,100")
        self.set_field(self.driver.find_element(By.CSS_SELECTOR, "#options input[name=to-rect]"), "0,0,375,300")
        self.wait(lambda d: d.find_element(By.ID, "frame").is_displayed() and "o.to-rect" in self.frame_key(), 10)

    def test_18_a_render_refusal_stays_and_the_button_waits_for_the_render(self):
        self.open(self.catalogue, "effect:fade")
        # 30 s at 60 fps: long enough to be running through every check below on a quiet machine too (6 s of
        # frames could finish before the second request on one), and cancelled at the end.
        self.set_field(self.driver.find_element(By.ID, "duration"), "30")
        out = self.driver.find_element(By.ID, "out")
        out.clear()
        out.send_keys("long-frames")
        self.driver.find_element(By.ID, "render-button").click()
        self.wait(lambda d: "of" in d.find_element(By.ID, "render-message").text, 20)
        self.assertFalse(self.driver.find_element(By.ID, "render-button").is_enabled(), "Render waits while a render runs")
        # A refusal (here: a render is running, as another client started it) stays while progress arrives.
        status, _ = self.catalogue.request(f"/api/render?subject=effect:fade&out=other&token={self.catalogue.token}", "POST")
        self.assertEqual(status, 409)
        self.driver.execute_script("window.studio.render()")
        self.wait(lambda d: "running" in d.find_element(By.ID, "render").text)
        time.sleep(0.5)
        self.assertIn("running", self.driver.find_element(By.ID, "render").text)
        self.driver.find_element(By.ID, "cancel").click()
        self.wait(lambda d: d.find_element(By.ID, "render-button").is_enabled(), 20)

    def test_19_show_moves_the_scrubber_and_render_writes_the_one_frame(self):
        self.open(self.catalogue, "effect:door")
        self.show_progress(0.5)
        count = self.driver.execute_script("return window.studio.timeline.count")
        k = round(0.5 * (count - 1))
        self.assertEqual(int(self.driver.find_element(By.ID, "scrubber").get_attribute("value")), k)
        out = self.driver.find_element(By.ID, "out")
        out.clear()
        out.send_keys("exact.png")
        self.driver.find_element(By.ID, "render-button").click()
        self.wait(lambda d: "written" in d.find_element(By.ID, "render-message").text, 60)
        path = os.path.join(self.directory, "exact.png")
        self.assertTrue(os.path.isfile(path), "one frame is one PNG file")
        with open(path, "rb") as f:
            self.assertEqual(f.read(), render(self.directory, "door", "--from", "sample:home", "--to", "sample:detail", "--progress", "0.5"))
        self.driver.find_element(By.TAG_NAME, "body").send_keys("\ue014")  # arrow right: the next frame from there
        self.wait(lambda d: f"frame={k + 1}&" in self.frame_key())
        out.clear()
        out.send_keys("out.avi")
        self.driver.find_element(By.ID, "render-button").click()
        self.wait(lambda d: "avi" in d.find_element(By.ID, "render").text and "out.avi:" not in d.find_element(By.ID, "render-message").text)
        self.assertFalse(os.path.exists(os.path.join(self.directory, "out.avi")))


    # ---- issue 47: hostile clients, against the server's socket ---------------------------------------------

    def test_20_sighup_during_a_render_leaves_nothing_behind(self):
        directory = tempfile.mkdtemp(prefix="segue-studio-hup-")
        studio = Studio(directory)
        try:
            # A video, written under a temporary name until it is whole (ffmpeg is one of studio's dependencies).
            status, body = studio.request(f"/api/render?subject=effect:fade&duration=8&out=long.mp4&token={studio.token}", "POST")
            self.assertEqual(status, 200, body)
            deadline = time.monotonic() + 20
            while time.monotonic() < deadline and not os.listdir(directory):
                time.sleep(0.05)
            time.sleep(0.3)
            self.assertTrue(os.listdir(directory), "the render has begun writing")
            os.killpg(studio.process.pid, signal.SIGHUP)
            # The studio gives a render 5 s to stop before it ends anyway; 30 s leaves room for a loaded machine.
            studio.process.wait(timeout=30)
            self.assertEqual(os.listdir(directory), [], "a render cut short by SIGHUP removes its partial output")
        finally:
            studio.stop()
            shutil.rmtree(directory, ignore_errors=True)

    def test_21_a_huge_frame_number_is_refused_and_the_server_lives(self):
        token = self.catalogue.token
        for route, method in [("/api/frame", "GET"), ("/api/timeline", "GET"), ("/api/compare", "GET"), ("/api/render", "POST")]:
            status, body = self.catalogue.request(f"{route}?subject=effect:fade&frame=9223372036854775807&out=huge&token={token}", method)
            self.assertEqual(status, 422, f"{route}: {body!r}")
        status, _ = self.catalogue.request(f"/api/state?token={token}")
        self.assertEqual(status, 200)

    # ---- issue 47: what to build ---------------------------------------------------------------------------

    def test_22_fit_one_to_one_and_zoom(self):
        self.open(self.catalogue, "effect:door")
        size = lambda: self.driver.execute_script("""
            const img = document.getElementById('frame'), r = img.getBoundingClientRect(), box = document.getElementById('pictures');
            return {w: r.width, h: r.height, nw: img.naturalWidth, nh: img.naturalHeight, dpr: devicePixelRatio,
                    boxW: box.clientWidth, vh: innerHeight, rendering: getComputedStyle(img).imageRendering,
                    grid: !!document.querySelector('#cpu-figure .grid')}""")
        fit = size()
        # Fit: the frame as large as the window lets it, whole: more than half the window's height.
        self.assertLessEqual(fit["w"], fit["boxW"] + 1)
        self.assertLessEqual(fit["h"], fit["vh"])
        self.assertGreater(fit["h"], fit["vh"] / 2)
        self.screenshot("fit")
        self.driver.find_element(By.CSS_SELECTOR, "#view button[data-view='1']").click()
        one = size()
        # 1:1: one frame pixel to one device pixel (the border's 2 CSS pixels aside).
        self.assertAlmostEqual(one["w"] - 2, one["nw"] / one["dpr"], delta=0.6)
        self.assertAlmostEqual(one["h"] - 2, one["nh"] / one["dpr"], delta=0.6)
        self.driver.find_element(By.CSS_SELECTOR, "#view button[data-view='8']").click()
        eight = size()
        self.assertAlmostEqual(eight["w"] - 2, 8 * eight["nw"] / eight["dpr"], delta=0.6)
        self.assertEqual(eight["rendering"], "pixelated")
        self.assertTrue(eight["grid"], "a pixel grid at 8x")
        self.screenshot("zoom-8x")
        # A new frame keeps the zoom; "0" goes back to fit.
        self.driver.find_element(By.TAG_NAME, "body").send_keys(Keys.ARROW_RIGHT)
        self.settle()
        self.assertAlmostEqual(size()["w"] - 2, 8 * eight["nw"] / eight["dpr"], delta=0.6)
        self.driver.find_element(By.TAG_NAME, "body").send_keys("0")
        self.assertLessEqual(size()["w"], fit["boxW"] + 1)
        self.assertEqual(self.console_errors(), [])

    def test_23_light_and_dark_follow_the_system(self):
        self.open(self.catalogue, "effect:door")
        colours = {}
        for scheme in ["light", "dark"]:
            self.driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": scheme}]})
            colours[scheme] = self.driver.execute_script("return getComputedStyle(document.body).color")
            self.screenshot(scheme)
        self.driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": []})
        self.assertNotEqual(colours["light"], colours["dark"], "the page's text follows the system's scheme")

    # ---- keys ----------------------------------------------------------------------------------------------

    def frame(self):
        return self.driver.execute_script("return window.studio.frame")

    def press(self, *keys, to=None):
        """Keys sent to `to` (the page's body when None), as a person's keyboard sends them."""
        (to or self.driver.find_element(By.TAG_NAME, "body")).send_keys(*keys)

    def test_24_shift_arrows_move_ten_frames_and_home_end_go_to_the_ends(self):
        self.open(self.catalogue, "effect:door")
        count = self.driver.execute_script("return window.studio.timeline.count")
        self.assertGreater(count, 22)
        self.press(Keys.HOME)
        self.assertEqual(self.frame(), 0)
        self.press(Keys.ARROW_RIGHT)
        self.assertEqual(self.frame(), 1)
        self.press(Keys.SHIFT + Keys.ARROW_RIGHT)
        self.assertEqual(self.frame(), 11)
        self.press(Keys.SHIFT + Keys.ARROW_RIGHT)
        self.assertEqual(self.frame(), 21)
        self.press(Keys.SHIFT + Keys.ARROW_LEFT)
        self.assertEqual(self.frame(), 11)
        self.press(Keys.END)
        self.assertEqual(self.frame(), count - 1)
        self.wait(lambda d: f"&frame={count - 1}&" in (d.execute_script("return window.studio.shownKey") or ""))
        self.press(Keys.SHIFT + Keys.ARROW_RIGHT)   # held at the last frame
        self.assertEqual(self.frame(), count - 1)
        self.press(Keys.HOME)
        self.assertEqual(self.frame(), 0)
        # The scrubber focused: its arrow keys are the page's (one frame, ten with Shift), not the range's too.
        scrubber = self.driver.find_element(By.ID, "scrubber")
        self.driver.execute_script("arguments[0].focus()", scrubber)
        self.press(Keys.SHIFT + Keys.ARROW_RIGHT, to=scrubber)
        self.assertEqual(self.frame(), 10)
        self.assertEqual(scrubber.get_attribute("value"), "10")

    def test_25_j_k_l_play_backwards_pause_and_play_forwards(self):
        self.open(self.catalogue, "effect:door")
        count = self.driver.execute_script("return window.studio.timeline.count")
        self.press(Keys.END)
        self.settle()
        # J: backwards from the last frame (the frames seen fall).
        self.press("j")
        self.assertTrue(self.driver.execute_script("return window.studio.playing && window.studio.direction === -1"))
        seen = []
        end = time.time() + 3
        while time.time() < end and len(set(seen)) < 4:
            seen.append(self.frame())
            time.sleep(0.02)
        falling = [b for a, b in zip(seen, seen[1:]) if b != a]
        self.assertGreaterEqual(len(set(seen)), 4, f"playing backwards showed {seen}")
        self.assertTrue(all(b < a or a < 5 for a, b in zip(seen, seen[1:]) if b != a), f"backwards: {seen}")
        self.assertLess(falling[0], count - 1)
        # K: paused where it is.
        self.press("k")
        self.assertFalse(self.driver.execute_script("return window.studio.playing"))
        held = self.frame()
        time.sleep(0.3)
        self.assertEqual(self.frame(), held)
        # L: forwards (the frames seen rise, round the end).
        self.press("l")
        self.assertTrue(self.driver.execute_script("return window.studio.playing && window.studio.direction === 1"))
        seen = [held]
        end = time.time() + 3
        while time.time() < end and len(set(seen)) < 4:
            seen.append(self.frame())
            time.sleep(0.02)
        self.press("k")
        self.assertGreaterEqual(len(set(seen)), 4, f"playing forwards showed {seen}")
        self.assertTrue(all(b > a or b < 5 for a, b in zip(seen, seen[1:]) if b != a), f"forwards: {seen}")

    def test_26_space_plays_anywhere_but_in_a_text_field(self):
        self.open(self.catalogue, "effect:door")
        playing = lambda: self.driver.execute_script("return window.studio.playing")
        compare = self.driver.find_element(By.ID, "compare")
        # On a focused button, a checkbox and the scrubber, space plays and pauses (and presses nothing).
        for element_id in ["play", "compare", "scrubber", "back"]:
            element = self.driver.find_element(By.ID, element_id)
            self.driver.execute_script("arguments[0].focus()", element)
            was, checked = playing(), compare.is_selected()
            self.press(Keys.SPACE, to=element)
            self.assertEqual(playing(), not was, f"space on #{element_id}")
            self.assertEqual(compare.is_selected(), checked, f"space on #{element_id} left the checkbox alone")
            self.press(Keys.SPACE, to=element)
            self.assertEqual(playing(), was, f"space again on #{element_id}")
        self.assertFalse(playing())
        # In a text field, space is a space.
        curve = self.driver.find_element(By.ID, "curve")
        curve.clear()
        curve.send_keys("cubic(0.4, 0, 0.2, 1)")
        self.assertFalse(playing())
        self.assertEqual(curve.get_attribute("value"), "cubic(0.4, 0, 0.2, 1)")
        curve.clear()
        progress = self.driver.find_element(By.ID, "progress")
        progress.send_keys(Keys.SPACE)
        self.assertFalse(playing())
        # Elsewhere on the page, it plays.
        self.press(Keys.SPACE)
        self.assertTrue(playing())
        self.press(Keys.SPACE)
        self.assertFalse(playing())

    def test_27_question_mark_opens_the_keys_and_escape_closes_them(self):
        self.open(self.catalogue, "effect:door")
        panel = self.driver.find_element(By.ID, "help")
        self.assertFalse(panel.is_displayed())
        self.press("?")
        self.wait(lambda d: panel.is_displayed())
        text = panel.text
        for key in ["Space", "Shift", "J", "K", "L", "Home", "End", "?"]:
            self.assertIn(key, text)
        self.screenshot("keys")
        self.press(Keys.ESCAPE, to=self.driver.switch_to.active_element)
        self.wait(lambda d: not panel.is_displayed())
        # The header's button opens it too; "?" again closes it.
        self.driver.find_element(By.ID, "help-button").click()
        self.wait(lambda d: panel.is_displayed())
        self.press("?")
        self.wait(lambda d: not panel.is_displayed())
        self.assertEqual(self.console_errors(), [])


    # ---- review tools --------------------------------------------------------------------------------------

    def sample_frames(self, seconds):
        """The frame on show at each animation frame for `seconds`, with the page's clock: [(ms, frame)]."""
        return self.driver.execute_async_script("""
            const [seconds, done] = arguments, seen = [], start = performance.now();
            const step = (now) => { seen.push([now, window.studio.frame]); if (now - start < seconds * 1000) requestAnimationFrame(step); else done(seen); };
            requestAnimationFrame(step);""", seconds)

    def test_28_a_loop_in_and_out_holds_playing_within_it(self):
        self.open(self.catalogue, "effect:door")
        self.press(Keys.HOME)
        for _ in range(5):
            self.press(Keys.ARROW_RIGHT)
        self.press("i")
        self.press(Keys.SHIFT + Keys.ARROW_RIGHT)
        self.press("o")
        self.assertEqual(self.driver.execute_script("return window.studio.loop"), {"in": 5, "out": 15})
        self.assertIn("frames 6 to 16", self.driver.find_element(By.ID, "loop").text)   # counted from 1, as the readout
        self.press(Keys.HOME)   # outside the loop: playing starts at its in point
        self.press("l")
        frames = [f for _, f in self.sample_frames(1.5)]
        self.press("k")
        self.assertTrue(all(5 <= f <= 15 for f in frames[3:]), f"frames outside 5-15: {frames}")
        self.assertGreaterEqual(len(set(frames)), 8, f"{frames}")
        self.assertIn(5, frames[3:])   # went round
        self.driver.find_element(By.ID, "loop-whole").click()
        self.assertIsNone(self.driver.execute_script("return window.studio.loop"))
        self.assertEqual(self.driver.find_element(By.ID, "loop").text, "")

    def test_29_playback_speed_from_a_quarter_to_twice(self):
        self.open(self.catalogue, "effect:door")
        fps = self.driver.execute_script("return window.studio.timeline.fps")
        count = self.driver.execute_script("return window.studio.timeline.count")
        speed = Select(self.driver.find_element(By.ID, "speed"))
        self.assertEqual([o.get_attribute("value") for o in speed.options], ["0.25", "0.5", "1", "1.5", "2"])
        rates = {}
        for value in ["0.25", "2"]:
            speed.select_by_value(value)
            self.press("l")
            seen = self.sample_frames(1.2)[5:]   # once playing has begun
            self.press("k")
            advanced = sum((b - a) % count for (_, a), (_, b) in zip(seen, seen[1:]))
            rates[value] = advanced / ((seen[-1][0] - seen[0][0]) / 1000)
            self.assertAlmostEqual(rates[value] / fps, float(value), delta=0.1 * float(value) + 1.5 / fps / 1.0,
                                   msg=f"{value}x played {rates[value]:.1f} frames/s at {fps} frames/s")
        print(f"test_29: 0.25x played {rates['0.25']:.1f} frames/s and 2x {rates['2']:.1f} at {fps} frames/s")

    def test_30_download_this_frame_is_the_picture_on_show(self):
        self.open(self.catalogue, "effect:door")
        self.show_progress(0.5)
        link = self.driver.find_element(By.ID, "download")
        self.assertEqual(link.get_attribute("download"), "door-progress-0.5.png")
        expected = render(self.directory, "door", "--from", "sample:home", "--to", "sample:detail", "--progress", "0.5")
        downloads = tempfile.mkdtemp(prefix="segue-downloads-")
        try:
            self.driver.execute_cdp_cmd("Browser.setDownloadBehavior", {"behavior": "allow", "downloadPath": downloads})
            link.click()
            path = os.path.join(downloads, "door-progress-0.5.png")
            self.wait(lambda d: os.path.exists(path) and os.path.getsize(path) == len(expected), 20)
            with open(path, "rb") as f:
                self.assertEqual(f.read(), expected)
        finally:
            shutil.rmtree(downloads, ignore_errors=True)
        # After a step, it is the new frame's.
        self.press(Keys.ARROW_RIGHT)
        frame = self.frame()
        self.wait(lambda d: link.get_attribute("download") == f"door-frame-{frame}.png")

    def test_31_the_difference_of_gles_and_the_cpu_with_the_worst_pixel(self):
        self.open(self.catalogue, "effect:circle-spread")
        self.show_progress(0.5)
        self.driver.find_element(By.ID, "difference").click()
        self.assertTrue(self.driver.find_element(By.ID, "compare").is_selected(), "the difference asks for GLES beside the CPU")
        self.wait(lambda d: d.find_element(By.ID, "psnr").text != "", 60)
        if "unavailable" in self.driver.find_element(By.ID, "psnr").text:
            self.skipTest("GLES is unavailable here")
        self.wait(lambda d: d.execute_script("return window.studio.differenceDrawn > 0"), 60)
        canvas = self.driver.find_element(By.ID, "difference-canvas")
        self.assertTrue(canvas.is_displayed())
        comparison = self.driver.execute_script("return window.studio.comparison")
        caption = self.driver.find_element(By.ID, "difference-caption").text
        # The page's own reading of both PNGs finds the same largest difference where the server says.
        found = self.driver.execute_async_script("""
            const done = arguments[arguments.length - 1];
            const load = async (src) => { const img = new Image(); img.src = src; await img.decode(); return img; };
            Promise.all([load(window.studio.shownKey), load(document.getElementById('frame-gles').src)]).then(([a, b]) => {
              const c = document.createElement('canvas'); c.width = a.naturalWidth; c.height = a.naturalHeight;
              const g = c.getContext('2d', { willReadFrequently: true });
              g.drawImage(a, 0, 0); const x = g.getImageData(0, 0, c.width, c.height).data;
              g.clearRect(0, 0, c.width, c.height); g.drawImage(b, 0, 0); const y = g.getImageData(0, 0, c.width, c.height).data;
              let best = 0, at = -1, opaque = true;
              for (let i = 0; i < x.length; i += 4) {
                if (x[i + 3] !== 255 || y[i + 3] !== 255) opaque = false;
                const d = Math.max(Math.abs(x[i] - y[i]), Math.abs(x[i + 1] - y[i + 1]), Math.abs(x[i + 2] - y[i + 2]), Math.abs(x[i + 3] - y[i + 3]));
                if (d > best) { best = d; at = i / 4; }
              }
              done({ best, x: at % c.width, y: Math.floor(at / c.width), opaque });
            });""")
        if comparison["identical"]:
            self.assertIn("no pixel differs", caption)
        else:
            worst = comparison["worst"]
            self.assertIn(f"({worst['x']}, {worst['y']})", caption)
            self.assertGreater(comparison["differing"], 0)
            if found["opaque"]:
                self.assertEqual((found["x"], found["y"], found["best"]), (worst["x"], worst["y"], worst["difference"]), f"{found} {worst}")
        self.screenshot("difference")
        # The amplification asked for (x64 at first) draws it again.
        Select(self.driver.find_element(By.ID, "amplify")).select_by_value("4")
        self.wait(lambda d: d.execute_script("return window.studio.differenceDrawn > 1"), 30)
        if not comparison["identical"]:
            self.assertIn("×4", self.driver.find_element(By.ID, "difference-caption").text)
            self.assertIn(f"the most at ({worst['x']}, {worst['y']}) by {worst['difference']}", self.driver.find_element(By.ID, "psnr").text)
        # Fit: the three pictures side by side, each whole, none past the box.
        sizes = self.driver.execute_script("""
            const box = document.getElementById('pictures').getBoundingClientRect();
            return [...document.querySelectorAll('#pictures img, #pictures canvas')].filter((e) => e.offsetParent)
              .map((e) => { const r = e.getBoundingClientRect(); return [r.left, r.right, r.width / r.height, box.right]; });""")
        self.assertEqual(len(sizes), 3)
        for left, right, aspect, box_right in sizes:
            self.assertLessEqual(right, box_right + 1)
            self.assertAlmostEqual(aspect, 375 / 667, delta=0.02)
        self.assertEqual(self.console_errors(), [])

    # ---- issue 47: the editor, problems at their line and column, the readout ---------------------------------

    def editor_text(self):
        return self.driver.execute_script("return document.getElementById('source').value")

    def marked_lines(self):
        """The numbers of the lines the gutter marks."""
        return self.driver.execute_script("return [...document.querySelectorAll('#gutter .bad')].map((n) => n.textContent)")

    def type_into_editor(self, text):
        """Puts `text` in the editor as typing would leave it, then saves with Ctrl-S from the editor."""
        source = self.driver.find_element(By.ID, "source")
        self.driver.execute_script("""
            const t = arguments[0]; t.focus(); t.value = arguments[1];
            t.dispatchEvent(new Event('input', { bubbles: true }));""", source, text)
        source.send_keys(Keys.END)   # a key typed there too, so the editor's own input runs as a person's would
        saves = self.driver.execute_script("return window.studio.editor.saves")
        source.send_keys(Keys.CONTROL, "s")
        return saves

    def test_32_the_readout_counts_frames_from_one_and_names_only_a_storyboards_steps(self):
        self.open(self.catalogue, "effect:door")
        self.press(Keys.HOME)
        self.wait(lambda d: d.find_element(By.ID, "readout").text.startswith("frame 1 of "))
        readout = self.driver.find_element(By.ID, "readout").text
        count = self.driver.execute_script("return window.studio.timeline.count")
        self.assertRegex(readout, rf"^frame 1 of {count} · 0\.00 s · progress 0\.00$")
        self.assertNotIn("step", readout)
        self.press(Keys.END)
        self.wait(lambda d: d.find_element(By.ID, "readout").text.startswith(f"frame {count} of {count}"))
        self.assertRegex(self.driver.find_element(By.ID, "readout").text, r" · [0-9]+\.[0-9]{2} s · progress 1\.00$")
        self.open(self.files, "file:1")
        self.press(Keys.HOME)
        self.wait(lambda d: d.find_element(By.ID, "readout").text.startswith("frame 1 of "))
        self.assertIn("· hold ·", self.driver.find_element(By.ID, "readout").text)
        self.driver.find_elements(By.CSS_SELECTOR, "#strip .step")[1].click()
        self.wait(lambda d: "· door ·" in d.find_element(By.ID, "readout").text)
        self.assertTrue(self.driver.find_element(By.ID, "readout").text.startswith("frame 7 of "))   # segue's frame 6

    def test_33_an_edit_saved_with_ctrl_s_reaches_the_picture(self):
        self.open(self.files, "file:0")
        self.assertFalse(self.driver.find_element(By.ID, "editor").get_attribute("hidden"))
        with open(self.effect) as f:
            self.assertEqual(self.editor_text(), f.read())
        lines = len(self.editor_text().split("\n"))
        self.assertEqual(len(self.driver.find_elements(By.CSS_SELECTOR, "#gutter div")), lines)
        self.show_progress(0.5)
        before = self.shown_png()
        try:
            edited = json.dumps(dict(SLIDE_UP, layers=[{"content": "from", "opacity": "1 - fade * e"},
                                                       {"content": "to", "transform": [{"translate": "[H * (1 - e), 0]"}]}]), indent=2)
            saves = self.type_into_editor(edited)
            self.wait(lambda d: d.execute_script("return window.studio.editor.saves") > saves, 5)
            with open(self.effect) as f:
                self.assertEqual(f.read(), edited)
            self.wait(lambda d: self.shown_png() != before, 5)
            self.assertEqual(self.shown_png(), render(self.directory, "./slide-up.json", "--from", "sample:home", "--to", "sample:detail", "--progress", "0.5"))
            self.assertEqual(self.driver.find_element(By.ID, "editor-status").text, "saved")
            # Changed on disk while the editor holds unsaved text: the page says so, and Ctrl-S overwrites nothing.
            self.driver.execute_script("""
                const t = document.getElementById('source'); t.value = arguments[0];
                t.dispatchEvent(new Event('input', { bubbles: true }));""", edited.replace("slide-up", "slide-mine"))
            theirs = json.dumps(dict(SLIDE_UP, summary="theirs"), indent=2)
            with open(self.effect, "w") as f:
                f.write(theirs)
            self.wait(lambda d: "changed on disk" in d.find_element(By.ID, "editor-status").text, 5)
            self.assertFalse(self.driver.find_element(By.ID, "editor-reload").get_attribute("hidden"))
            self.driver.find_element(By.ID, "source").send_keys(Keys.CONTROL, "s")
            self.wait(lambda d: d.execute_script("return window.studio.editor.refused") == 409, 5)
            with open(self.effect) as f:
                self.assertEqual(f.read(), theirs)
            self.driver.find_element(By.ID, "editor-reload").click()
            self.wait(lambda d: self.editor_text() == theirs, 5)
        finally:
            restore(self.effect, SLIDE_UP)

    def test_34_a_syntax_error_shows_its_line_and_column_marked_in_the_editor(self):
        self.open(self.files, "file:0")
        self.show_progress(0.5)
        good = self.shown_png()
        try:
            text = json.dumps(SLIDE_UP, indent=2)
            broken = text.replace('"duration": 0.4', '"duration": 0.4,,', 1)
            line = broken[:broken.index(",,")].count("\n") + 1
            column = len(broken[:broken.index(",,")].split("\n")[-1]) + 2   # the second comma
            self.type_into_editor(broken)
            self.wait(lambda d: not d.find_element(By.ID, "problems").get_attribute("hidden"), 5)
            problems = self.driver.find_element(By.ID, "problem-list").text
            self.assertIn(f"line {line}, column {column}", problems)
            self.assertNotIn("character", problems)
            # Said once: beside the problem, not again in its message.
            self.assertEqual(problems.count("line "), 1, problems)
            self.assertEqual(problems.count(f"column {column}"), 1, problems)
            self.assertEqual(self.marked_lines(), [str(line)])
            self.assertEqual(len(self.driver.find_elements(By.CSS_SELECTOR, "#bands .band")), 1)
            self.assertEqual(self.shown_png(), good, "the last good picture stays beside the problem")
            self.driver.execute_script("document.getElementById('source').setSelectionRange(0, 0)")
            self.driver.find_element(By.CSS_SELECTOR, "#problem-list a.at").click()
            caret = self.driver.execute_script("const t = document.getElementById('source'); return [t.selectionStart, document.activeElement === t]")
            self.assertEqual(caret, [len("\n".join(broken.split("\n")[:line - 1])) + 1 + column - 1, True])
            self.screenshot("editor")
            # A problem at a JSON path is marked at its line too.
            self.type_into_editor(text.replace('"range": "unit"', '"range": "sideways"'))
            self.wait(lambda d: "$.options[0].range" in d.find_element(By.ID, "problem-list").text, 5)
            range_line = text[:text.index('"range"')].count("\n") + 1
            # (Its option unread, the layer using it has a problem of its own: each line listed is marked.)
            self.wait(lambda d: str(range_line) in self.marked_lines(), 5)
            listed = re.findall(r"line ([0-9]+), column", self.driver.find_element(By.ID, "problem-list").text)
            self.assertIn(str(range_line), listed)
            self.assertEqual(self.marked_lines(), sorted(set(listed), key=int))
            errors = [e for e in self.console_errors() if e["source"] != "network"]
            self.assertEqual(errors, [], "\n".join(e["message"] for e in errors))
        finally:
            restore(self.effect, SLIDE_UP)

    def test_35_a_phone_sized_storyboard_scrubs_with_its_frames_drawn_ahead(self):
        # Two 750x1334 screens (an iPhone 8's), door over 1 s at 60 frames/s: the issue's storyboard figure.
        directory = tempfile.mkdtemp(prefix="segue-studio-phone-")
        try:
            for name, t in [("a.png", "0"), ("b.png", "1")]:
                subprocess.run([SEGUE, "render", "fade", "--from", "sample:home", "--to", "sample:detail", "--size", "750x1334",
                                "--progress", t, "--out", name, "--backend", "cpu", "--quiet"], cwd=directory, check=True)
            with open(os.path.join(directory, "phone.json"), "w") as f:
                json.dump({"fps": 60, "screens": {"a": "a.png", "b": "b.png"},
                           "timeline": [{"hold": "a", "duration": 0.2}, {"transition": "door", "from": "a", "to": "b", "duration": 1},
                                        {"hold": "b", "duration": 0.2}]}, f)
            phone = Studio(directory, "phone.json")
            try:
                self.open(phone, "file:0")
                cold = self.driver.execute_async_script("const done = arguments[0]; window.studio.measureScrub().then(done)")
                warm = self.driver.execute_async_script("const done = arguments[0]; window.studio.measureScrub().then(done)")
                load = os.getloadavg()[0]
                print(f"studio: scrubbing {cold['frames']} frames of a 750x1334 storyboard: first pass {cold['fps']:.1f} frames/s "
                      f"({cold['fetchMs']:.1f} ms request to bytes, {cold['drawMs']:.1f} ms drawing a frame into the canvas), again "
                      f"{warm['fps']:.1f} frames/s ({warm['fetchMs']:.1f} ms, {warm['drawMs']:.1f} ms); load average {load:.2f}; "
                      f"60 frames/s {'met' if cold['fps'] >= 60 else 'missed'}")
                self.assertGreaterEqual(cold["fps"], PHONE_SCRUB_FPS)
                self.assertGreaterEqual(warm["fps"], PHONE_SCRUB_FPS)
                # Each frame shown is segue batch's, byte for byte (the last one the scrub reached).
                frames = os.path.join(directory, "frames")
                subprocess.run([SEGUE, "batch", "phone.json", "--out", frames, "--backend", "cpu", "--quiet"], cwd=directory, check=True)
                last = cold["frames"] - 1
                with open(os.path.join(frames, f"frame_{last:05d}.png"), "rb") as f:
                    expected = f.read()
                self.assertEqual(self.shown_png(), expected)
                self.assert_canvas_holds(expected)
            finally:
                phone.stop()
        finally:
            shutil.rmtree(directory, ignore_errors=True)

    def test_47_a_display_p3_storyboard_is_drawn_into_a_display_p3_canvas(self):
        # Screens tagged Display P3 make the storyboard's working space P3 (auto): its raw frames say so, and the
        # page puts them into a canvas made in P3, whose pixels read back in P3 are the P3 PNG's samples.
        directory = tempfile.mkdtemp(prefix="segue-studio-p3-")
        try:
            for name, t in [("a.png", "0"), ("b.png", "1")]:
                subprocess.run([SEGUE, "render", "fade", "--from", "sample:home", "--to", "sample:detail", "--size", "200x356",
                                "--progress", t, "--colour-space", "display-p3", "--out", name, "--backend", "cpu", "--quiet"],
                               cwd=directory, check=True)
            with open(os.path.join(directory, "wide.json"), "w") as f:
                json.dump({"fps": 10, "screens": {"a": "a.png", "b": "b.png"},
                           "timeline": [{"transition": "door", "from": "a", "to": "b", "duration": 1}]}, f)
            wide = Studio(directory, "wide.json")
            try:
                self.open(wide, "file:0")
                self.driver.execute_script("const s = document.getElementById('scrubber'); s.value = '4'; s.dispatchEvent(new Event('input'))")
                self.wait(lambda d: "frame=4" in (d.execute_script("return window.studio.shownKey") or ""))
                self.settle()
                shown = self.shown_png()
                self.assertIn(b"iCCP", shown[:200], "the frame's PNG carries its profile")
                frames = os.path.join(directory, "frames")
                subprocess.run([SEGUE, "batch", "wide.json", "--out", frames, "--backend", "cpu", "--quiet"], cwd=directory, check=True)
                with open(os.path.join(frames, "frame_00004.png"), "rb") as f:
                    self.assertEqual(shown, f.read())
                self.assert_canvas_holds(shown, space="display-p3")
                self.assertEqual(self.console_errors(), [])
            finally:
                wide.stop()
        finally:
            shutil.rmtree(directory, ignore_errors=True)

    # ---- controls that fit the value (issue 47) --------------------------------------------------------------

    def shows_option(self, name, value):
        """Waits until the picture on show was drawn with --name value (as the request writes it)."""
        wanted = f"o.{name}={urllib.parse.quote(value, safe='')}"
        self.wait(lambda d: wanted in (d.execute_script("return window.studio.shownKey") or "?").split("?", 1)[1].split("&"))
        self.settle()

    def open_controls(self, subject):
        """Opens a subject; what an earlier test's page logged as it went (a stopped studio) is not this one's."""
        self.open(self.catalogue, subject)
        self.console_errors()

    def option_field(self, name):
        return self.driver.find_element(By.CSS_SELECTOR, f"#options input[name='{name}']")

    def test_36_a_unit_number_has_a_slider_in_step_with_its_field(self):
        self.open_controls("effect:page-flip")
        self.show_progress(0.5)
        field = self.option_field("shadow")
        slider = self.driver.find_element(By.CSS_SELECTOR, "#options input[type=range][aria-label='--shadow']")
        self.assertEqual((slider.get_attribute("min"), slider.get_attribute("max")), ("0", "1"))
        self.assertEqual(slider.get_attribute("value"), "0.1", "an empty field: the slider at the default")
        self.assertIsNone(self.driver.execute_script("return document.querySelector('#options input[type=range][aria-label=\"--perspective\"]')"),
                          "no slider for a range open above (positive)")
        # Moved with the keyboard, as a person moves it: five steps of 0.01 from the default.
        for _ in range(5):
            slider.send_keys(Keys.ARROW_RIGHT)
        self.wait(lambda d: field.get_attribute("value") == "0.15")
        self.shows_option("shadow", "0.15")
        self.assertEqual(self.driver.execute_script("return window.studio.exact"), 0.5, "still the progress asked for")
        self.assertEqual(self.shown_png(), render(self.directory, "page-flip", "--from", "sample:home", "--to", "sample:detail",
                                                  "--progress", "0.5", "--shadow", "0.15"))
        self.assertIn("--shadow 0.15", self.driver.find_element(By.ID, "command").text)
        # Typed in the field, the slider follows; emptied, it goes back to the default.
        field.send_keys(Keys.CONTROL + "a")
        field.send_keys("0.8")
        self.assertEqual(slider.get_attribute("value"), "0.8")
        field.send_keys(Keys.CONTROL + "a")
        field.send_keys(Keys.BACKSPACE)
        self.assertEqual(slider.get_attribute("value"), "0.1")
        self.assertEqual(self.console_errors(), [])
        self.screenshot("slider")

    def test_48_a_height_up_to_the_frames_has_a_slider_to_the_frames_height(self):
        self.open_controls("effect:sheet")
        self.show_progress(0.5)
        field = self.option_field("height")
        slider = self.driver.find_element(By.CSS_SELECTOR, "#options input[type=range][aria-label='--height']")
        self.assertEqual((slider.get_attribute("min"), slider.get_attribute("max"), slider.get_attribute("step")), ("1", "667", "1"),
                         "(0, H] for the default frame, 667 points high")
        self.assertEqual(slider.get_attribute("value"), "400", "an empty field: the slider at the default")
        for _ in range(10):
            slider.send_keys(Keys.ARROW_LEFT)
        self.wait(lambda d: field.get_attribute("value") == "390")
        self.shows_option("height", "390")
        self.assertEqual(self.shown_png(), render(self.directory, "sheet", "--from", "sample:home", "--to", "sample:detail",
                                                  "--progress", "0.5", "--height", "390"))
        # A frame of another height moves the slider's end with it.
        self.set_field(self.driver.find_element(By.ID, "size"), "300x534")
        self.wait(lambda d: slider.get_attribute("max") == "534")
        field.send_keys(Keys.CONTROL + "a")
        field.send_keys("1000")
        self.assertEqual(slider.get_attribute("value"), "534", "a value past the frame sits at its end")
        self.assertEqual(self.console_errors(), [])

    def test_37_a_colour_has_a_picker_in_step_with_its_field(self):
        self.open_controls("effect:circle-zoom")
        self.show_progress(0.5)
        field = self.option_field("color")
        picker = self.driver.find_element(By.CSS_SELECTOR, "#options input[type=color][aria-label='--color']")
        self.assertEqual(picker.get_attribute("value"), "#ffa500", "an empty field: the picker at the default")
        # The system's colour dialog is not the page's: a pick is what it leaves, the picker's value and events.
        self.driver.execute_script("""const p = arguments[0]; p.value = '#3366cc';
            p.dispatchEvent(new Event('input', {bubbles: true})); p.dispatchEvent(new Event('change', {bubbles: true}));""", picker)
        self.assertEqual(field.get_attribute("value"), "3366CC")
        self.shows_option("color", "3366CC")
        self.assertEqual(self.shown_png(), render(self.directory, "circle-zoom", "--from", "sample:home", "--to", "sample:detail",
                                                  "--progress", "0.5", "--color", "3366CC"))
        field.send_keys(Keys.CONTROL + "a")
        field.send_keys("00ff80")
        self.assertEqual(picker.get_attribute("value"), "#00ff80")
        self.assertEqual(self.console_errors(), [])

    def drag_by(self, element, dx, dy):
        ActionChains(self.driver).move_to_element(element).click_and_hold().pause(0.05) \
            .move_by_offset(dx // 2, dy // 2).pause(0.05).move_by_offset(dx - dx // 2, dy - dy // 2).pause(0.05).release().perform()

    def scale(self):
        """Shown pixels per frame pixel."""
        return self.driver.execute_script("const i = document.getElementById('frame'); return i.clientWidth / i.naturalWidth")

    def handle_at(self, selector):
        """Where a handle's centre (or a rectangle's top-left corner) is on the picture, in frame pixels."""
        return self.driver.execute_script("""
            const img = document.getElementById('frame'), r = img.getBoundingClientRect(), h = document.querySelector(arguments[0]);
            const b = h.getBoundingClientRect(), s = img.clientWidth / img.naturalWidth, corner = arguments[1];
            const x = corner ? b.left : b.left + b.width / 2, y = corner ? b.top : b.top + b.height / 2;
            return [(x - r.left - img.clientLeft) / s, (y - r.top - img.clientTop) / s];""", selector, ".area" in selector)

    def test_38_a_point_is_dragged_on_the_picture(self):
        self.open_controls("effect:circle-spread")
        self.show_progress(0.5)
        self.assertTrue(self.driver.find_element(By.ID, "handles").get_attribute("hidden"))
        self.driver.find_element(By.CSS_SELECTOR, "#options input[name=center] + button.on-picture").click()
        handle = self.driver.find_element(By.CSS_SELECTOR, "#handles .handle.point")
        x, y = self.handle_at("#handles .handle.point")
        # Empty: the default, the frame's centre (375x667).
        self.assertAlmostEqual(x, 187.5, delta=0.6)
        self.assertAlmostEqual(y, 333.5, delta=0.6)
        scale = self.scale()
        self.assertNotAlmostEqual(scale, 1, delta=0.01, msg="fit: the frame is not at 1:1, the drag is scaled")
        self.drag_by(handle, -70, -90)
        field = self.option_field("center")
        self.wait(lambda d: field.get_attribute("value") != "")
        cx, cy = (float(v) for v in field.get_attribute("value").split(","))
        # Moved by the pointer's pixels over the picture's scale, to a whole frame pixel.
        self.assertAlmostEqual(cx, 187.5 - 70 / scale, delta=1)
        self.assertAlmostEqual(cy, 333.5 - 90 / scale, delta=1)
        value = field.get_attribute("value")
        self.shows_option("center", value)
        self.assertEqual(self.shown_png(), render(self.directory, "circle-spread", "--from", "sample:home", "--to", "sample:detail",
                                                  "--progress", "0.5", "--center", value))
        hx, hy = self.handle_at("#handles .handle.point")
        self.assertAlmostEqual(hx, cx, delta=0.6)
        self.assertAlmostEqual(hy, cy, delta=0.6)
        # Pressed anywhere on the picture, the point goes there; at 2x the scale is another.
        self.driver.find_element(By.CSS_SELECTOR, "#view button[data-view='2']").click()
        self.assertAlmostEqual(self.scale(), 2, delta=0.01)
        at = self.driver.execute_script("""const img = document.getElementById('frame'), r = img.getBoundingClientRect();
            return [Math.round(r.left + img.clientLeft + 2 * 40), Math.round(r.top + img.clientTop + 2 * 50)]""")
        press = ActionBuilder(self.driver)
        press.pointer_action.move_to_location(*at).click()
        press.perform()
        self.wait(lambda d: field.get_attribute("value") != value)
        px, py = (float(v) for v in field.get_attribute("value").split(","))
        self.assertAlmostEqual(px, 40, delta=1)
        self.assertAlmostEqual(py, 50, delta=1)
        self.shows_option("center", field.get_attribute("value"))
        self.driver.find_element(By.CSS_SELECTOR, "#view button[data-view='fit']").click()
        self.assertEqual(self.console_errors(), [])

    def test_39_a_rectangle_is_moved_and_resized_on_the_picture(self):
        self.open_controls("effect:hero")
        self.option_field("to-rect").send_keys("0,0,375,280")
        from_rect = self.option_field("from-rect")
        from_rect.send_keys("20,100,60,60")
        self.driver.execute_script("document.getElementById('settings').dispatchEvent(new Event('change'))")
        self.show_progress(0.3)
        self.console_errors()  # hero without its rectangles was refused (422) before they were typed
        # Focusing its field put it on the picture.
        self.assertEqual(self.driver.find_element(By.CSS_SELECTOR, "#options input[name='from-rect'] + button.on-picture")
                         .get_attribute("aria-pressed"), "true")
        x, y = self.handle_at("#handles .area")
        self.assertAlmostEqual(x, 20, delta=0.6)
        self.assertAlmostEqual(y, 100, delta=0.6)
        scale = self.scale()
        self.drag_by(self.driver.find_element(By.CSS_SELECTOR, "#handles .area"), 80, 120)
        self.wait(lambda d: from_rect.get_attribute("value") != "20,100,60,60")
        moved = [float(v) for v in from_rect.get_attribute("value").split(",")]
        self.assertAlmostEqual(moved[0], 20 + 80 / scale, delta=1)
        self.assertAlmostEqual(moved[1], 100 + 120 / scale, delta=1)
        self.assertEqual(moved[2:], [60, 60], "moved, not resized")
        self.shows_option("from-rect", from_rect.get_attribute("value"))
        # The corner resizes it; the top-left corner stays.
        self.drag_by(self.driver.find_element(By.CSS_SELECTOR, "#handles .corner"), 60, 30)
        self.wait(lambda d: from_rect.get_attribute("value").split(",")[2] != "60")
        resized = [float(v) for v in from_rect.get_attribute("value").split(",")]
        self.assertEqual(resized[:2], moved[:2])
        self.assertAlmostEqual(resized[2], 60 + 60 / scale, delta=1)
        self.assertAlmostEqual(resized[3], 60 + 30 / scale, delta=1)
        value = from_rect.get_attribute("value")
        self.shows_option("from-rect", value)
        self.assertEqual(self.shown_png(), render(self.directory, "hero", "--from", "sample:home", "--to", "sample:detail",
                                                  "--progress", "0.3", "--from-rect", value, "--to-rect", "0,0,375,280"))
        self.assertIn(f"--from-rect {value}", self.driver.find_element(By.ID, "command").text)
        self.assertEqual(self.console_errors(), [])
        self.screenshot("rect")

    def test_49_one_pair_of_several_is_dragged_on_the_picture(self):
        self.open_controls("effect:hero")
        to_rect = self.option_field("to-rect")
        to_rect.send_keys("0,0,375,280; 200,400,100,100")
        from_rect = self.option_field("from-rect")
        from_rect.send_keys("20,100,60,60; 200,300,80,80")
        self.driver.execute_script("document.getElementById('settings').dispatchEvent(new Event('change'))")
        self.show_progress(0.3)
        self.console_errors()  # hero without its rectangles was refused (422) before they were typed
        # Both pairs' rectangles are drawn with the two --from-rect values, and the command gives each its own flag.
        self.shows_option("from-rect", "20,100,60,60; 200,300,80,80")
        command = self.driver.find_element(By.ID, "command").text
        self.assertIn("--from-rect 20,100,60,60 --from-rect 200,300,80,80", command)
        self.assertIn("--to-rect 0,0,375,280 --to-rect 200,400,100,100", command)
        areas = self.driver.find_elements(By.CSS_SELECTOR, "#handles .area")
        self.assertEqual([a.text for a in areas], ["1", "2"], "one numbered rectangle a pair")
        x, y = self.handle_at("#handles .area:nth-child(2)")
        self.assertAlmostEqual(x, 200, delta=0.6)
        self.assertAlmostEqual(y, 300, delta=0.6)
        # The second pair's rectangle moved; the first's is written back as it was.
        scale = self.scale()
        self.drag_by(areas[1], 40, -60)
        self.wait(lambda d: from_rect.get_attribute("value") != "20,100,60,60; 200,300,80,80")
        first, second = [[float(v) for v in part.split(",")] for part in from_rect.get_attribute("value").split(";")]
        self.assertEqual(first, [20, 100, 60, 60])
        self.assertAlmostEqual(second[0], 200 + 40 / scale, delta=1)
        self.assertAlmostEqual(second[1], 300 - 60 / scale, delta=1)
        self.assertEqual(second[2:], [80, 80])
        value = from_rect.get_attribute("value")
        self.shows_option("from-rect", value)
        parts = [p.strip() for p in value.split(";")]
        self.assertEqual(self.shown_png(), render(self.directory, "hero", "--from", "sample:home", "--to", "sample:detail",
                                                  "--progress", "0.3", "--from-rect", parts[0], "--from-rect", parts[1],
                                                  "--to-rect", "0,0,375,280", "--to-rect", "200,400,100,100"))
        self.assertEqual(self.console_errors(), [])
        self.screenshot("pairs")

    def test_41_the_curve_is_edited_by_its_control_points(self):
        self.open_controls("effect:door")
        self.show_progress(0.5)
        editor = self.driver.find_element(By.ID, "curve-editor")
        self.assertTrue(editor.is_displayed())
        point = lambda cls: [float(self.driver.find_element(By.CSS_SELECTOR, f"#curve-editor .{cls}").get_attribute(a)) for a in ("cx", "cy")]
        # Empty: the effect's own, ease-out, cubic(0, 0, 0.58, 1).
        self.assertEqual(point("p1") + point("p2"), [0, 0, 0.58, 1])
        unit = editor.size["width"] / 1.5   # CSS pixels per unit of x and y (the box shows -0.25 to 1.25)
        self.drag_by(self.driver.find_element(By.CSS_SELECTOR, "#curve-editor .p1"), round(0.5 * unit), -round(0.3 * unit))
        field = self.driver.find_element(By.ID, "curve")
        self.wait(lambda d: field.get_attribute("value").startswith("cubic("))
        x1, y1, x2, y2 = (float(v) for v in field.get_attribute("value")[6:-1].split(","))
        self.assertAlmostEqual(x1, 0.5, delta=0.02)
        self.assertAlmostEqual(y1, 0.3, delta=0.02)
        self.assertEqual((x2, y2), (0.58, 1))
        curve = field.get_attribute("value")
        self.wait(lambda d: f"curve={urllib.parse.quote(curve, safe='')}" in (d.execute_script("return window.studio.shownKey") or ""))
        self.settle()
        self.assertEqual(self.shown_png(), render(self.directory, "door", "--from", "sample:home", "--to", "sample:detail",
                                                  "--progress", "0.5", "--curve", curve))
        self.assertIn(curve, self.driver.find_element(By.ID, "command").text)
        self.screenshot("curve-cubic")
        # A spring has no control points: its curve is drawn without them.
        field.send_keys(Keys.CONTROL + "a")
        field.send_keys("spring(0.5,1)")
        self.assertTrue(editor.is_displayed())
        self.assertFalse(self.driver.find_element(By.CSS_SELECTOR, "#curve-editor .p1").is_displayed())
        self.assertEqual(self.console_errors(), [])

    def test_40_the_controls_together(self):
        """circle-zoom's point on the picture beside its colour picker: the page's picture of the controls."""
        self.open_controls("effect:circle-zoom")
        self.show_progress(0.6)
        self.option_field("color").send_keys("E0457B")
        self.option_field("center").send_keys("120,420")
        self.driver.execute_script("document.getElementById('settings').dispatchEvent(new Event('change'))")
        self.shows_option("center", "120,420")
        # Its field was focused last: the point is on the picture.
        self.assertEqual(self.driver.find_element(By.CSS_SELECTOR, "#options input[name=center] + button.on-picture")
                         .get_attribute("aria-pressed"), "true")
        self.assertFalse(self.driver.find_element(By.ID, "handles").get_attribute("hidden"))
        self.driver.execute_script("document.activeElement.blur()")
        self.screenshot("controls")

    # ---- the curve plotted with the playhead, a spring's parameters, the form written into the file ----------

    @staticmethod
    def cubic_y(x1, y1, x2, y2, x):
        """A CSS cubic Bezier's y at x, by bisection on its parameter (docs/effects.md, section 2)."""
        b = lambda a1, a2, s: 3 * (1 - s) ** 2 * s * a1 + 3 * (1 - s) * s * s * a2 + s ** 3
        lo, hi = 0.0, 1.0
        for _ in range(80):
            mid = (lo + hi) / 2
            lo, hi = (mid, hi) if b(x1, x2, mid) < x else (lo, mid)
        return b(y1, y2, (lo + hi) / 2)

    @staticmethod
    def spring_y(zeta, v0, duration, t):
        """spring(damping,velocity) at progress t over `duration` s: docs/effects.md's closed form."""
        w0 = math.log(1000) / (zeta * duration)
        tau = t * duration
        if abs(zeta - 1) < 1e-9:
            return 1 - math.exp(-w0 * tau) * (1 + (w0 - v0) * tau)
        if zeta < 1:
            wd = w0 * math.sqrt(1 - zeta * zeta)
            return 1 - math.exp(-zeta * w0 * tau) * (math.cos(wd * tau) + ((zeta * w0 - v0) / wd) * math.sin(wd * tau))
        wd = w0 * math.sqrt(zeta * zeta - 1)
        c = (zeta * w0 - v0) / wd
        return 1 - ((1 + c) * math.exp(-(zeta * w0 - wd) * tau) + (1 - c) * math.exp(-(zeta * w0 + wd) * tau)) / 2

    def playhead(self):
        """The playhead on the curve: the line's x and the dot's (x, y), in the curve's units."""
        return self.driver.execute_script("""
            const g = document.getElementById('curve-playhead');
            if (g.hasAttribute('hidden')) return null;
            const n = (id, a) => Number(document.getElementById(id).getAttribute(a));
            return [n('curve-playhead-line', 'x1'), n('curve-playhead-dot', 'cx'), n('curve-playhead-dot', 'cy')];""")

    def set_curve(self, text):
        field = self.driver.find_element(By.ID, "curve")
        field.send_keys(Keys.CONTROL + "a")
        field.send_keys(text if text else Keys.DELETE)
        self.driver.execute_script("document.getElementById('settings').dispatchEvent(new Event('change'))")

    def test_42_the_curve_is_plotted_with_the_playhead_at_the_frames_progress(self):
        self.open_controls("effect:door")   # ease-out, 0.5 s
        self.show_progress(0.5)
        editor = self.driver.find_element(By.ID, "curve-editor")
        self.assertTrue(editor.is_displayed())
        self.assertFalse(self.driver.find_element(By.ID, "write-defaults").is_displayed(), "a built-in effect is no one's file")
        x, dot_x, dot_y = self.playhead()
        self.assertEqual((x, dot_x), (0.5, 0.5))
        self.assertAlmostEqual(dot_y, self.cubic_y(0, 0, 0.58, 1, 0.5), places=5)
        # Scrubbing moves it: at each frame, the progress the readout says and the curve's value there.
        timeline = self.driver.execute_script("return window.studio.timeline")
        for k in [0, 7, 20, timeline["count"] - 1]:
            self.driver.execute_script("const s = document.getElementById('scrubber'); s.value = arguments[0]; s.dispatchEvent(new Event('input'))", k)
            self.wait(lambda d: d.execute_script("return window.studio.frame") == k)
            t = timeline["progress"][k]
            x, dot_x, dot_y = self.playhead()
            self.assertAlmostEqual(x, t, places=9)
            self.assertAlmostEqual(dot_y, self.cubic_y(0, 0, 0.58, 1, t), places=5)
            self.assertIn(f"progress {t:.2f}", self.driver.find_element(By.ID, "readout").text)
        # Playing moves it too.
        before = self.playhead()
        self.driver.find_element(By.ID, "play").click()
        self.wait(lambda d: self.playhead() != before, 5)
        self.driver.find_element(By.ID, "play").click()
        # A named curve is its cubic; a spring is plotted by its closed form over the duration in use.
        self.show_progress(0.3)
        self.set_curve("ease-in")
        self.wait(lambda d: abs(self.playhead()[2] - self.cubic_y(0.42, 0, 1, 1, 0.3)) < 1e-5, 5)
        self.set_curve("spring(0.5,2)")
        self.wait(lambda d: abs(self.playhead()[2] - self.spring_y(0.5, 2, 0.5, 0.3)) < 1e-5, 5)
        duration = self.driver.find_element(By.ID, "duration")
        duration.send_keys("0.8")
        self.wait(lambda d: abs(self.playhead()[2] - self.spring_y(0.5, 2, 0.8, 0.3)) < 1e-5, 5)
        path = self.driver.find_element(By.ID, "curve-path").get_attribute("d")
        self.assertGreater(path.count("L"), 200, "a spring is drawn point by point")
        # The curve drawn is the one the picture is: its value at the playhead, e, is what the frame shows.
        self.assertEqual(self.driver.execute_script("return window.studio.easedAt('spring(0.5,2)', 0.8, 0.3)"), self.playhead()[2])
        self.assertEqual(self.console_errors(), [])

    def test_43_a_springs_damping_and_velocity_are_sliders_that_write_it(self):
        self.open_controls("effect:sheet")   # forward: spring(0.55, 1/0.55) over 0.8 s
        self.show_progress(0.5)
        springs = self.driver.find_element(By.ID, "spring-editor")
        self.assertTrue(springs.is_displayed(), "the effect's own curve is a spring")
        self.assertFalse(self.driver.find_element(By.CSS_SELECTOR, "#curve-editor .p1").is_displayed())
        damping = self.driver.find_element(By.ID, "spring-damping")
        velocity = self.driver.find_element(By.ID, "spring-velocity-number")
        self.assertEqual(damping.get_attribute("value"), "0.55")
        own_velocity = float(velocity.get_attribute("value"))
        self.assertAlmostEqual(own_velocity, 1 / 0.55, places=3)
        self.assertEqual((damping.get_attribute("min"), damping.get_attribute("max")), ("0.05", "2"))
        # Played back, sheet's own curve is ease-in-out: a cubic, its control points, no spring.
        point = lambda cls: [float(self.driver.find_element(By.CSS_SELECTOR, f"#curve-editor .{cls}").get_attribute(a)) for a in ("cx", "cy")]
        Select(self.driver.find_element(By.ID, "direction")).select_by_visible_text("back")
        self.wait(lambda d: not springs.is_displayed(), 5)
        self.assertEqual(point("p1") + point("p2"), [0.42, 0, 0.58, 1])
        Select(self.driver.find_element(By.ID, "direction")).select_by_visible_text("forward")
        self.wait(lambda d: springs.is_displayed(), 5)
        self.settle()
        # The slider moved by its keys (not the frame's): five steps of 0.01.
        frame = self.driver.execute_script("return window.studio.frame")
        damping.send_keys(Keys.ARROW_RIGHT * 5)
        field = self.driver.find_element(By.ID, "curve")
        self.wait(lambda d: field.get_attribute("value") == f"spring(0.6,{velocity.get_attribute('value')})", 5)
        self.assertEqual(self.driver.execute_script("return window.studio.frame"), frame)
        # The velocity typed in its number.
        velocity.send_keys(Keys.CONTROL + "a")
        velocity.send_keys("3")
        self.wait(lambda d: field.get_attribute("value") == "spring(0.6,3)", 5)
        self.driver.execute_script("document.getElementById('settings').dispatchEvent(new Event('change'))")
        self.wait(lambda d: f"curve={urllib.parse.quote('spring(0.6,3)', safe='')}" in (d.execute_script("return window.studio.shownKey") or ""))
        self.settle()
        self.assertEqual(self.shown_png(), render(self.directory, "sheet", "--from", "sample:home", "--to", "sample:detail",
                                                  "--progress", "0.5", "--curve", "spring(0.6,3)"))
        self.assertAlmostEqual(self.playhead()[2], self.spring_y(0.6, 3, 0.8, 0.5), places=5)
        self.driver.execute_script("document.activeElement.blur()")
        self.screenshot("curve")
        # A cubic: its control points, no spring.
        self.set_curve("cubic(0.2,0.8,0.4,1)")
        self.wait(lambda d: not springs.is_displayed(), 5)
        self.assertTrue(self.driver.find_element(By.CSS_SELECTOR, "#curve-editor .p1").is_displayed())
        self.assertEqual(self.console_errors(), [])

    def test_46_a_storyboards_step_shows_its_curve_with_the_playhead(self):
        self.open(self.files, "file:1")   # a hold, door over 0.5 s (its own curve, ease-out), a hold
        timeline = self.driver.execute_script("return window.studio.timeline")
        self.assertEqual(timeline["timeline"][1]["curve"], "ease-out")
        self.assertIsNone(timeline["timeline"][0].get("curve"))
        editor = self.driver.find_element(By.ID, "curve-editor")
        door = [k for k in range(timeline["count"]) if timeline["steps"][k] == 1]

        def go(k):
            self.driver.execute_script("const s = document.getElementById('scrubber'); s.value = arguments[0]; s.dispatchEvent(new Event('input'))", k)
            self.wait(lambda d: d.execute_script("return window.studio.frame") == k)

        go(1)
        self.assertFalse(editor.is_displayed(), "a hold has no curve")
        self.assertTrue(self.driver.find_element(By.ID, "curve-note").is_displayed())
        for k in [door[0], door[len(door) // 2], door[-1]]:
            go(k)
            self.wait(lambda d: editor.is_displayed(), 5)
            t = timeline["progress"][k]
            x, dot_x, dot_y = self.playhead()
            self.assertAlmostEqual(x, t, places=9)
            self.assertAlmostEqual(dot_y, self.cubic_y(0, 0, 0.58, 1, t), places=5)
            self.assertIn(f"progress {t:.2f}", self.driver.find_element(By.ID, "readout").text)
        self.assertIn("door", self.driver.find_element(By.ID, "timing-legend").text)
        self.screenshot("storyboard-curve")
        # Shown, not edited: no control points, no fields.
        self.assertFalse(self.driver.find_element(By.CSS_SELECTOR, "#curve-editor .p1").is_displayed())
        self.assertFalse(self.driver.find_element(By.ID, "curve").is_displayed())
        go(timeline["count"] - 1)
        self.wait(lambda d: not editor.is_displayed(), 5)
        self.assertEqual(self.console_errors(), [])

    def test_44_the_forms_values_are_written_into_the_file_as_its_defaults(self):
        self.open(self.files, "file:0")
        self.console_errors()
        self.show_progress(0.5)
        original = json.dumps(SLIDE_UP, indent=2)
        try:
            self.assertTrue(self.driver.find_element(By.ID, "write-defaults").is_displayed())
            self.option_field("fade").send_keys("0.7")
            self.driver.find_element(By.ID, "curve").send_keys("cubic(0.3,0.1,0.2,1)")   # the duration is left empty
            self.driver.execute_script("document.getElementById('settings').dispatchEvent(new Event('change'))")
            self.shows_option("fade", "0.7")
            self.wait(lambda d: "curve=cubic" in d.execute_script("return window.studio.shownKey"))
            self.settle()
            before = self.shown_png()
            version = self.driver.execute_script("return window.studio.subject.version")
            saves = self.driver.execute_script("return window.studio.editor.saves")
            self.driver.find_element(By.ID, "write-defaults").click()
            self.wait(lambda d: d.execute_script("return window.studio.defaultsWritten") == 1, 5)
            self.assertEqual(self.driver.execute_script("return window.studio.editor.saves"), saves + 1)
            # The values as the defaults, the rest of the text as it was (the empty duration not written).
            with open(self.effect) as f:
                self.assertEqual(f.read(), original.replace('"default": 0.4', '"default": 0.7')
                                 .replace('"curve": "ease-out"', '"curve": "cubic(0.3,0.1,0.2,1)"'))
            self.assertEqual(self.editor_text(), original.replace('"default": 0.4', '"default": 0.7')
                             .replace('"curve": "ease-out"', '"curve": "cubic(0.3,0.1,0.2,1)"'))
            # The fields are empty (the values are the defaults now) and the picture is the same, byte for byte.
            self.assertEqual(self.option_field("fade").get_attribute("value"), "")
            self.assertEqual(self.driver.find_element(By.ID, "curve").get_attribute("value"), "")
            self.assertGreater(self.driver.execute_script("return window.studio.subject.version"), version)
            key = self.driver.execute_script("return window.studio.shownKey")
            self.assertNotIn("o.fade", key)
            self.assertNotIn("curve=", key)
            self.assertEqual(self.shown_png(), before)
            self.assertEqual(self.driver.find_element(By.ID, "editor-status").text, "saved")
            self.assertIn("--fade", self.driver.find_element(By.ID, "defaults-message").text)
            # A required option takes a default in place of "required": true, in the file's own layout.
            required = dict(SLIDE_UP, options=[dict(SLIDE_UP["options"][0], default=None, required=True)])
            del required["options"][0]["default"]
            self.type_into_editor(json.dumps(required, indent=2))
            self.wait(lambda d: d.execute_script("return document.querySelector('#options input[name=fade]').placeholder") == "required", 5)
            self.option_field("fade").send_keys("0.25")
            self.driver.find_element(By.ID, "duration").send_keys("0.6")
            self.driver.find_element(By.ID, "write-defaults").click()
            self.wait(lambda d: d.execute_script("return window.studio.defaultsWritten") == 2, 5)
            with open(self.effect) as f:
                written = f.read()
            self.assertEqual(written, json.dumps(required, indent=2).replace('"required": true', '"default": 0.25')
                             .replace('"duration": 0.4', '"duration": 0.6'))
            self.assertEqual(json.loads(written)["options"][0]["default"], 0.25)
            # A file changed on disk under unsaved text is not overwritten (409, as Ctrl-S): the field keeps its value.
            source = self.driver.find_element(By.ID, "source")
            source.send_keys(Keys.CONTROL, Keys.END)
            source.send_keys(" ")
            theirs = json.dumps(dict(SLIDE_UP, summary="theirs"), indent=2)
            with open(self.effect, "w") as f:
                f.write(theirs)
            self.wait(lambda d: "changed on disk" in d.find_element(By.ID, "editor-status").text, 5)
            self.option_field("fade").send_keys("0.3")
            self.driver.find_element(By.ID, "write-defaults").click()
            self.wait(lambda d: d.execute_script("return window.studio.editor.refused") == 409, 5)
            self.wait(lambda d: "Not saved" in d.find_element(By.ID, "defaults-message").text, 5)
            with open(self.effect) as f:
                self.assertEqual(f.read(), theirs)
            self.assertEqual(self.option_field("fade").get_attribute("value"), "0.3")
            self.driver.find_element(By.ID, "editor-reload").click()
            self.wait(lambda d: self.editor_text() == theirs, 5)
        finally:
            restore(self.effect, SLIDE_UP)
        errors = [e for e in self.console_errors() if e["source"] != "network"]
        self.assertEqual(errors, [], "\n".join(e["message"] for e in errors))

    def test_45_unsaved_text_is_said_and_leaving_the_page_asks_first(self):
        self.open(self.files, "file:0")
        leaving = "return !window.dispatchEvent(new Event('beforeunload', { cancelable: true }))"
        try:
            self.assertFalse(self.driver.find_element(By.ID, "editor-unsaved").is_displayed())
            self.assertFalse(self.driver.execute_script(leaving), "nothing unsaved: the page is left without a question")
            source = self.driver.find_element(By.ID, "source")
            source.send_keys(Keys.CONTROL, Keys.END)
            source.send_keys(" ")
            self.wait(lambda d: d.find_element(By.ID, "editor-unsaved").is_displayed(), 5)
            self.assertTrue(self.driver.find_element(By.ID, "editor-status").text.startswith("unsaved"))
            self.assertTrue(self.driver.execute_script(leaving), "unsaved text: leaving asks first")
            # Typed back as it was: nothing unsaved.
            source.send_keys(Keys.BACKSPACE)
            self.wait(lambda d: not d.find_element(By.ID, "editor-unsaved").is_displayed(), 5)
            self.assertFalse(self.driver.execute_script(leaving))
            # Unsaved again, and still said when a save is refused (the file changed on disk).
            source.send_keys(" ")
            self.wait(lambda d: d.find_element(By.ID, "editor-unsaved").is_displayed(), 5)
            with open(self.effect, "w") as f:
                f.write(json.dumps(dict(SLIDE_UP, summary="theirs"), indent=2))
            self.wait(lambda d: "changed on disk" in d.find_element(By.ID, "editor-status").text, 5)
            source.send_keys(Keys.CONTROL, "s")
            self.wait(lambda d: d.execute_script("return window.studio.editor.refused") == 409, 5)
            self.assertTrue(self.driver.find_element(By.ID, "editor-unsaved").is_displayed())
            self.assertTrue(self.driver.execute_script(leaving))
            # Loaded again: nothing unsaved.
            self.driver.find_element(By.ID, "editor-reload").click()
            self.wait(lambda d: not d.find_element(By.ID, "editor-unsaved").is_displayed(), 5)
            self.assertFalse(self.driver.execute_script(leaving))
        finally:
            restore(self.effect, SLIDE_UP)


if __name__ == "__main__":
    unittest.main(verbosity=2)
