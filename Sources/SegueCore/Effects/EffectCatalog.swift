import Foundation

/// The built-in effects: the files in `Sources/SegueCore/Effects/Catalog/`, built into the binary by SwiftPM
/// (`.embedInCode`, as the shaders are) and read like any user's file when first used. SwiftPM cannot list
/// them, so each is named once here; a test checks that the list matches the folder.
public enum EffectCatalog {
    /// Each built-in file's name and bytes, in the order `segue effects` lists them.
    static let files: [(name: String, bytes: [UInt8])] = [
        // The nine effects Segue started from (docs/effects.md section 3).
        ("fade.json", PackageResources.fade_json),
        ("door.json", PackageResources.door_json),
        ("circle-spread.json", PackageResources.circle_spread_json),
        ("circle-zoom.json", PackageResources.circle_zoom_json),
        ("page-flip.json", PackageResources.page_flip_json),
        ("hero.json", PackageResources.hero_json),
        ("spin.json", PackageResources.spin_json),
        ("hinge.json", PackageResources.hinge_json),
        ("sheet.json", PackageResources.sheet_json),
        // UIKit.
        ("push.json", PackageResources.push_json),
        ("present.json", PackageResources.present_json),
        ("page-sheet.json", PackageResources.page_sheet_json),
        ("flip-horizontal.json", PackageResources.flip_horizontal_json),
        // Hero's default animation types.
        ("slide.json", PackageResources.slide_json),
        ("cover.json", PackageResources.cover_json),
        ("uncover.json", PackageResources.uncover_json),
        ("pull.json", PackageResources.pull_json),
        ("zoom-slide.json", PackageResources.zoom_slide_json),
        ("page-in.json", PackageResources.page_in_json),
        ("page-out.json", PackageResources.page_out_json),
        ("zoom.json", PackageResources.zoom_json),
        ("zoom-out.json", PackageResources.zoom_out_json),
        // Material motion.
        ("shared-axis.json", PackageResources.shared_axis_json),
        ("fade-through.json", PackageResources.fade_through_json),
        ("container-transform.json", PackageResources.container_transform_json),
        // Remotion.
        ("wipe.json", PackageResources.wipe_json),
        ("clock-wipe.json", PackageResources.clock_wipe_json),
        ("iris.json", PackageResources.iris_json),
        ("cube.json", PackageResources.cube_json),
    ]

    /// The names of the built-in files, for the test that compares them with the folder.
    public static var fileNames: [String] { files.map(\.name) }

    /// Every built-in effect, in catalogue order. A built-in file that does not read is a bug of the build:
    /// the tests read every one.
    public static let builtIn: [Effect] = files.map { file in
        do {
            return try Effect(json: Data(file.bytes), file: "built-in \(file.name)")
        } catch {
            fatalError("\(error)")
        }
    }

    /// The built-in effect `name`, or nil.
    public static func named(_ name: String) -> Effect? { builtIn.first { $0.name == name } }

    /// The built-in names, for messages: "fade, door, ...".
    public static var names: String { builtIn.map(\.name).joined(separator: ", ") }
}

extension Effect {
    /// The nine effects Segue started from (docs/effects.md section 3), by name, for programs and tests.
    public static let fade = EffectCatalog.named("fade")!
    public static let door = EffectCatalog.named("door")!
    public static let circleSpread = EffectCatalog.named("circle-spread")!
    public static let circleZoom = EffectCatalog.named("circle-zoom")!
    public static let pageFlip = EffectCatalog.named("page-flip")!
    public static let hero = EffectCatalog.named("hero")!
    public static let spin = EffectCatalog.named("spin")!
    public static let hinge = EffectCatalog.named("hinge")!
    public static let sheet = EffectCatalog.named("sheet")!
}
