import Foundation
import SegueCore
@testable import SegueGLES
import SegueTestSupport
import Testing

extension GLESSuite {
    /// Programs kept on disk as the driver's binaries (`ProgramBinaries`): a second renderer links every
    /// program a job needs from them and draws the same bytes; a damaged or foreign file is compiled again and
    /// replaced; `SEGUE_PROGRAM_CACHE=0` keeps nothing.
    @Suite struct ProgramBinariesTests {
        static let planes = YCbCrPlanes(weights: TransferTests.bt709, subsampled: true)

        /// A renderer whose cache directory is `cache`, and the RGBA and 4:2:0 frames it draws on `path`.
        static func draw(_ path: GLESPath, cache: URL, switchedOff: Bool = false) throws -> (frames: [[UInt8]], stats: GLESStats, keeps: Bool) {
            var environment = ProcessInfo.processInfo.environment
            environment["XDG_CACHE_HOME"] = cache.path
            environment[ProgramBinaries.disableSwitch] = switchedOff ? "0" : nil
            let gles = try GLESRenderer(platform: nil, environment: environment)
            try gles.use(path)
            let snapshots = TestTransitions.snapshots(width: 64, height: 36)
            try gles.load(snapshots: snapshots)
            let lists = [Effect.pageFlip, .circleSpread, .hero].flatMap { TransferTests.lists($0, width: 64, height: 36, snapshots: snapshots) }
            var frames: [[UInt8]] = []
            try gles.drawFrames(count: lists.count, frame: { .layers(lists[$0]) }, lend: { frames.append(Array($1)) })
            try gles.drawFrames(count: lists.count, frame: { .layers(lists[$0]) }, planes: planes, deliver: { frames.append(Array($1)) })
            return (frames, gles.stats, gles.keepsProgramBinaries)
        }

        @Test(arguments: GLESPath.allCases)
        func aSecondRendererLinksTheKeptBinaries(path: GLESPath) throws {
            let cache = FileManager.default.temporaryDirectory.appendingPathComponent("segue-programs-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: cache) }
            let directory = cache.appendingPathComponent("segue/programs")
            let first = try Self.draw(path, cache: cache)
            // Mesa offers binaries while its own shader cache is on (its default); a driver that offers none
            // keeps nothing, and says so.
            guard first.keeps else {
                #expect(!FileManager.default.fileExists(atPath: directory.path))
                return
            }
            let kept = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasSuffix(".bin") }
            #expect(first.stats.programsLoaded == 0 && kept.count == first.stats.programsCompiled && kept.count > 0,
                    "\(path.rawValue): \(first.stats.programsCompiled) compiled, \(kept.count) kept")

            let second = try Self.draw(path, cache: cache)
            #expect(second.stats.programsLoaded == second.stats.programsCompiled && second.stats.programsLoaded == kept.count,
                    "\(path.rawValue): \(second.stats.programsLoaded) of \(second.stats.programsCompiled) linked from disk")
            #expect(second.frames == first.frames, "\(path.rawValue): frames from the kept binaries differ")

            // A damaged file (its binary's bytes changed) and a file of another key under a kept name: each is
            // compiled again and replaced, and the frames are the same.
            let names = kept.sorted()
            let damaged = directory.appendingPathComponent(names[0])
            var bytes = try [UInt8](Data(contentsOf: damaged))
            for k in 32..<bytes.count { bytes[k] = UInt8(truncatingIfNeeded: k &* 31) }
            try Data(bytes).write(to: damaged)
            if names.count > 1 {
                let foreign = directory.appendingPathComponent(names[1])
                var other = try [UInt8](Data(contentsOf: foreign))
                other[8] ^= 0xFF  // the key it holds is no longer its name's
                try Data(other).write(to: foreign)
            }
            let third = try Self.draw(path, cache: cache)
            #expect(third.frames == first.frames, "\(path.rawValue): frames after a damaged binary differ")
            #expect(third.stats.programsLoaded == kept.count - min(2, names.count), "\(path.rawValue): \(third.stats.programsLoaded) linked")
            let fourth = try Self.draw(path, cache: cache)
            #expect(fourth.stats.programsLoaded == kept.count, "the damaged files were not replaced: \(fourth.stats.programsLoaded) of \(kept.count)")
        }

        /// What a careless or hostile user can leave in the cache: a FIFO, a link to a file elsewhere and a directory
        /// at kept names, and a cache directory that cannot be made. Each program is compiled from its text, the
        /// frames are the same, nothing waits on the FIFO, nothing is written through the link, and the next
        /// renderer finds regular files where the FIFO and the link were.
        @Test func whatIsPlantedInTheCacheIsNeverReadWaitedOnOrWrittenThrough() throws {
            let cache = FileManager.default.temporaryDirectory.appendingPathComponent("segue-programs-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: cache) }
            let directory = cache.appendingPathComponent("segue/programs")
            let first = try Self.draw(.raster, cache: cache)
            guard first.keeps else { return }  // a driver that offers no binaries keeps nothing to plant over
            let names = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasSuffix(".bin") }.sorted()
            try #require(names.count >= 3, "\(names.count) programs kept")
            let fifo = directory.appendingPathComponent(names[0]).path
            let link = directory.appendingPathComponent(names[1]).path
            let folder = directory.appendingPathComponent(names[2]).path
            let outside = cache.appendingPathComponent("outside.bin")
            let original = try Data(contentsOf: URL(fileURLWithPath: link))
            try original.write(to: outside)  // a valid binary, but reached only through a link
            for planted in [fifo, link, folder] { unlink(planted) }
            #expect(mkfifo(fifo, 0o600) == 0)
            #expect(symlink(outside.path, link) == 0)
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)

            let second = try Self.draw(.raster, cache: cache)  // a wait on the FIFO would hang here
            #expect(second.frames == first.frames)
            #expect(second.stats.programsLoaded == names.count - 3, "\(second.stats.programsLoaded) of \(names.count) linked from disk")
            #expect(try Data(contentsOf: outside) == original, "written through the link")
            for replaced in [fifo, link] {
                var info = stat()
                #expect(lstat(replaced, &info) == 0 && info.st_mode & S_IFMT == S_IFREG, "\(replaced) was not replaced by a regular file")
            }
            let third = try Self.draw(.raster, cache: cache)
            #expect(third.stats.programsLoaded == names.count - 1, "only the directory's name should be compiled again")

            // A cache that cannot be made (a file where its directory would be): drawn all the same, nothing kept.
            let blocked = cache.appendingPathComponent("blocked")
            try FileManager.default.createDirectory(at: blocked, withIntermediateDirectories: true)
            try Data("not a directory".utf8).write(to: blocked.appendingPathComponent("segue"))
            let unkept = try Self.draw(.raster, cache: blocked)
            #expect(unkept.frames == first.frames && unkept.stats.programsLoaded == 0)
        }

        @Test func switchedOffKeepsNothing() throws {
            let cache = FileManager.default.temporaryDirectory.appendingPathComponent("segue-programs-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: cache) }
            let off = try Self.draw(.raster, cache: cache, switchedOff: true)
            #expect(!off.keeps && off.stats.programsLoaded == 0)
            #expect(!FileManager.default.fileExists(atPath: cache.appendingPathComponent("segue/programs").path))
        }
    }
}
