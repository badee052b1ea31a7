import Foundation
import SegueCore
@testable import SegueGLES
import Testing

extension GLESSuite {
    /// Which EGL platform the renderer picks, and how it fails when it cannot have the one it is told to use.
    @Suite struct Platforms {
        private var hasRenderNode: Bool {
            ((try? FileManager.default.contentsOfDirectory(atPath: "/dev/dri")) ?? []).contains { $0.hasPrefix("renderD") }
        }

        @Test func probeTriesEveryPlatformInOrder() {
            let probes = GLESRenderer.probe()
            for p in probes { print("probe \(p)") }
            #expect(probes.map(\.platform) == EGLPlatform.allCases)
            #expect(probes.contains { $0.ok }, "no platform worked: \(probes)")
            if !hasRenderNode {
                let gbm = probes.first { $0.platform == .gbm }
                #expect(gbm?.ok == false)
                #expect(gbm?.detail == "no DRM render node (/dev/dri/renderD*)")
            }
            for p in probes where p.ok {
                #expect(p.detail.contains("GL_MAX_TEXTURE_SIZE"))
                #expect(p.detail.contains("OpenGL ES 3"))
            }
        }

        @Test func defaultChoiceFallsBackPastGBM() throws {
            let renderer = try GLESRenderer()
            print("gles: \(renderer.details); probes: \(renderer.probes)")
            #expect(renderer.name == "gles")
            #expect(renderer.probes.last?.ok == true)
            #expect(renderer.probes.last?.platform == renderer.platform)
            if !hasRenderNode {
                #expect(renderer.platform == .device || renderer.platform == .surfaceless)
                #expect(renderer.probes.first == PlatformProbe(platform: .gbm, ok: false, detail: "no DRM render node (/dev/dri/renderD*)"))
            }
            #expect(renderer.maxTextureSize >= 2048)
        }

        @Test(arguments: [EGLPlatform.device, .surfaceless])
        func forcedPlatformIsUsed(platform: EGLPlatform) throws {
            // Both exist wherever Mesa does; the renderer must use exactly the one asked for.
            let renderer = try GLESRenderer(platform: platform)
            #expect(renderer.platform == platform)
            #expect(renderer.probes.count == 1)
            let list = DrawList(scene: Scene(size: Size(4, 4), layers: []), scale: 1, snapshots: [],
                                background: Color(red: 1, green: 0, blue: 0))
            let frame = try renderer.render(list)
            #expect(frame.pixels.allSatisfy { $0 == 0xFF00_00FF })
        }

        @Test func forcingGBMWithoutARenderNodeFailsClearly() throws {
            try #require(!hasRenderNode, "this machine has a DRM render node; GBM may work here")
            #expect {
                _ = try GLESRenderer(platform: .gbm)
            } throws: { error in
                "\(error)" == "EGL platform gbm is unavailable: no DRM render node (/dev/dri/renderD*)"
            }
        }

        @Test func failSwitchMakesCreationFail() {
            let environment = ["SEGUE_EGL_FAIL": "1"]
            #expect {
                _ = try GLESRenderer(platform: nil, environment: environment)
            } throws: { error in
                guard let error = error as? EGLError, case .disabled = error else { return false }
                return "\(error)" == "EGL context creation is disabled: SEGUE_EGL_FAIL=1 is set"
            }
            let probes = GLESRenderer.probe(environment: environment)
            #expect(probes.count == EGLPlatform.allCases.count && probes.allSatisfy { !$0.ok })
        }

        @Test func errorsNameTheFailingCall() {
            #expect("\(EGLError.call("eglInitialize", code: EGL_NOT_INITIALIZED_CODE))" == "eglInitialize: EGL_NOT_INITIALIZED")
            #expect("\(GLError.call("glTexSubImage2D", code: 0x0505))" == "glTexSubImage2D: GL_OUT_OF_MEMORY")
            #expect("\(GLError.shaderCompile(file: "layer.frag", log: "0:12: error\n"))" == "layer.frag: compile failed: 0:12: error")
        }

        @Test func shaderCompileErrorCarriesFileAndLog() throws {
            let thread = GLThread(name: "test")
            defer { thread.stop() }
            let message: String = try thread.sync {
                let (result, _) = GLContext.create(forced: nil)
                let context = try result.get()
                defer { context.destroy() }
                do {
                    _ = try LayerProgram.compile(GL_FRAGMENT_SHADER_CODE, file: "broken.frag",
                                                 source: "#version 300 es\nvoid main() { nope; }\n", ledger: GLObjectLedger())
                    return "compiled"
                } catch {
                    return "\(error)"
                }
            }
            #expect(message.hasPrefix("broken.frag: compile failed:"), "\(message)")
            #expect(message.contains("nope"), "\(message)")
        }

        @Test func limitsAreClearErrors() throws {
            let renderer = try GLESRenderer()
            let limit = renderer.maxTextureSize
            #expect {
                try renderer.load(snapshots: [Pixmap(width: limit + 1, height: 1)])
            } throws: { "\($0)" == "snapshot 0 (\(limit + 1)x1) is over GL_MAX_TEXTURE_SIZE (\(limit) on this device)" }
            let wide = renderer.maxFrameSize.width + 1
            let list = DrawList(scene: Scene(size: Size(Double(wide), 1), layers: []), scale: 1, snapshots: [])
            #expect {
                _ = try renderer.render(list)
            } throws: { "\($0)".hasPrefix("frame \(wide)x1 is over GL_MAX_") }
        }
    }
}

private let EGL_NOT_INITIALIZED_CODE: Int32 = 0x3001
private let GL_FRAGMENT_SHADER_CODE: Int32 = 0x8B30
