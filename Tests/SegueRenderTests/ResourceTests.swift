import Foundation
import SegueCore
import SegueGLES
import Testing

extension GLESSuite {
    /// Drawing many frames leaks neither GL objects nor memory, and renderers can come and go.
    @Suite struct Resources {
        /// Resident set size in bytes, from /proc/self/statm.
        private static func residentBytes() -> Int {
            guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
            let fields = text.split(separator: " ")
            return fields.count > 1 ? (Int(fields[1]) ?? 0) * Int(sysconf(Int32(_SC_PAGESIZE))) : 0
        }

        /// glibc's `malloc_trim(0)`: hands the free pages of every malloc arena back to the system, so resident
        /// memory shows what is allocated rather than what the allocator keeps cached (malloc.h is not in
        /// Swift's Glibc module, hence dlsym).
        private static func trimMalloc() {
            typealias MallocTrim = @convention(c) (Int) -> Int32
            guard let handle = dlopen(nil, RTLD_NOW), let symbol = dlsym(handle, "malloc_trim") else { return }
            _ = unsafeBitCast(symbol, to: MallocTrim.self)(0)
        }

        @Test func fiveHundredFramesLeaveObjectsAndMemoryFlat() throws {
            let snapshots = TestTransitions.snapshots(width: 120, height: 200)
            let renderer = try GLESRenderer()
            try renderer.load(snapshots: snapshots)
            let effects = EffectCatalog.builtIn
            func list(_ k: Int) -> DrawList {
                TestTransitions.drawList(effects[k % effects.count], k % 2 == 0 ? .forward : .back,
                                         t: Double(k % 11) / 10, snapshots: snapshots)
            }
            // Warm up: the ring, the framebuffer, the driver's caches, and every shader variant the frames below
            // use: the lists repeat every lcm(effects, 2, 11) frames, which divides 22 x effects, so these draw
            // each of them once (50 frames missed page-flip's flat back frame once the catalogue had 13 effects).
            var frame = Pixmap(width: 0, height: 0)
            for k in 0..<(22 * effects.count) { try renderer.draw(list(k), into: &frame) }
            try renderer.drawFrames(count: 50, list: list) { _, _ in }
            let objects = renderer.liveGLObjects
            Self.trimMalloc()
            let resident = Self.residentBytes()

            for k in 0..<250 { try renderer.draw(list(k), into: &frame) }
            try renderer.drawFrames(count: 250, list: list) { _, _ in }
            Self.trimMalloc()
            let grownBy = Double(Self.residentBytes() - resident) / Double(max(1, resident))
            print("500 frames: GL objects \(objects) -> \(renderer.liveGLObjects), resident \(resident >> 20) MiB, "
                  + String(format: "grew %.2f%%", grownBy * 100))
            #expect(renderer.liveGLObjects == objects)
            // AddressSanitizer holds freed memory in quarantine (to catch use after free), so resident memory
            // grows by design there; `make soak` measures growth in a release build.
            if !Self.underSanitizer {
                #expect(grownBy < 0.03, "resident memory grew by \(grownBy * 100)%")
            }
        }

        /// True in a `--sanitize=address` or `--sanitize=thread` build (its runtime is linked in). Their
        /// allocators keep freed memory (ASan's quarantine, TSan's shadow and allocator caches), so resident
        /// memory says nothing about leaks there; GL object counts still do, and `make soak` measures memory.
        static let underSanitizer = ["__asan_init", "__tsan_init"].contains { (name: String) in
            dlsym(dlopen(nil, RTLD_NOW), name) != nil
        }

        @Test func renderersReleaseEverything() throws {
            let snapshots = TestTransitions.snapshots(width: 120, height: 200)
            let list = TestTransitions.drawList(.door, .forward, t: 0.5, snapshots: snapshots)
            func createAndDrop(_ count: Int) throws {
                for _ in 0..<count {
                    let renderer = try GLESRenderer()
                    _ = try renderer.rendering(list, snapshots: snapshots)
                    #expect(renderer.liveGLObjects > 0)
                }  // deinit deletes every object (GLPipeline.destroy asserts its ledger is empty)
            }
            // Each renderer has its own GL thread, and glibc gives new threads their own malloc arenas (up to
            // 8 per core) whose free pages it keeps: resident memory is measured after trimming them.
            try createAndDrop(10)
            Self.trimMalloc()
            let resident = Self.residentBytes()
            try createAndDrop(30)
            Self.trimMalloc()
            let grownBy = Double(Self.residentBytes() - resident) / Double(max(1, resident))
            print("30 more renderers created and dropped: resident \(resident >> 20) MiB, grew " + String(format: "%.2f%%", grownBy * 100))
            if !Self.underSanitizer {
                #expect(grownBy < 0.03, "resident memory grew by \(grownBy * 100)% over 30 renderers")
            }
        }
    }
}
