import Foundation
import ArgumentParser
import SegueCore

/// Parsers for the command line's compound values; each failure names the value and the expected form.
enum Parse {
    static func numbers(_ text: String, count: Int, separator: Character, form: String) throws -> [Double] {
        let parts = text.split(separator: separator, omittingEmptySubsequences: false)
        let values = parts.map { Double($0.trimmingCharacters(in: .whitespaces)) }
        guard parts.count == count, values.allSatisfy({ $0 != nil && $0!.isFinite }) else {
            throw ValidationError("'\(text)' is not \(form)")
        }
        return values.map { $0! }
    }

    static func point(_ text: String) throws -> Point {
        let v = try numbers(text, count: 2, separator: ",", form: "a point x,y")
        return Point(v[0], v[1])
    }

    static func rect(_ text: String) throws -> Rect {
        let v = try numbers(text, count: 4, separator: ",", form: "a rectangle x,y,w,h")
        return Rect(v[0], v[1], v[2], v[3])
    }

    static func color(_ text: String) throws -> Color {
        guard let c = Color(hex: text) else { throw ValidationError("'\(text)' is not a colour RRGGBB") }
        return c
    }

    static func pixelSize(_ text: String) throws -> (Int, Int) {
        let parts = text.lowercased().split(separator: "x", omittingEmptySubsequences: false)
        guard parts.count == 2, let w = Int(parts[0]), let h = Int(parts[1]) else {
            throw ValidationError("'\(text)' is not a size WxH in pixels (for example 1920x1080)")
        }
        guard w > 0, h > 0, w <= 16384, h <= 16384 else {
            throw ValidationError("--size \(text) is out of range: each side must be 1...16384 pixels")
        }
        return (w, h)
    }

    static func curve(_ text: String) throws -> TimingCurve {
        do { return try TimingCurve(parsing: text) } catch let error as SegueError { throw ValidationError(error.description) }
    }

    static func number(_ text: String, _ name: String) throws -> Double {
        guard let v = Double(text), v.isFinite else { throw ValidationError("--\(name) '\(text)' is not a number") }
        return v
    }
}

extension Effect: ExpressibleByArgument {
    public init?(argument: String) { self.init(rawValue: argument) }
    public static var allValueStrings: [String] { allCases.map(\.rawValue) }
}

extension Direction: ExpressibleByArgument {
    public init?(argument: String) { self.init(rawValue: argument) }
}

/// Every effect option, named as in EFFECTS.md. Which apply to which effect: `segue effects`.
struct EffectOptionArguments: ParsableArguments {
    @Option(help: ArgumentHelp("door: scale of the screen behind the doors at the start (0.7).", valueName: "k"))
    var zoom: Double?

    @Option(help: ArgumentHelp("circle-spread, circle-zoom: the circle's centre in points (frame centre).", valueName: "x,y"),
            transform: Parse.point)
    var center: Point?

    @Option(name: .customLong("start-radius"), help: ArgumentHelp("circle-spread: radius at the start, points (30).", valueName: "r"))
    var startRadius: Double?

    @Option(name: .customLong("end-radius"), help: ArgumentHelp("circle-spread: radius at the end, points (farthest corner).", valueName: "r"))
    var endRadius: Double?

    @Option(help: ArgumentHelp("circle-zoom: the disc's colour (FFA500).", valueName: "RRGGBB"), transform: Parse.color)
    var color: Color?

    @Option(help: ArgumentHelp("page-flip (500), spin and hinge (0 = none): eye distance d in points, m34 = -1/d.", valueName: "d"))
    var perspective: Double?

    @Option(help: ArgumentHelp("page-flip: shadow opacity at the spine, 0...1 (0.1).", valueName: "a"))
    var shadow: Double?

    @Option(name: .customLong("from-rect"), help: ArgumentHelp("hero: where the snapshot starts, points (required).", valueName: "x,y,w,h"),
            transform: Parse.rect)
    var fromRect: Rect?

    @Option(name: .customLong("to-rect"), help: ArgumentHelp("hero: where the snapshot lands, points (required).", valueName: "x,y,w,h"),
            transform: Parse.rect)
    var toRect: Rect?

    @Option(name: .customLong("from-radius"), help: ArgumentHelp("hero: corner radius at the start, points (0).", valueName: "r"))
    var fromRadius: Double?

    @Option(name: .customLong("to-radius"), help: ArgumentHelp("hero: corner radius at the end, points (0).", valueName: "r"))
    var toRadius: Double?

    @Option(help: ArgumentHelp("sheet: the sheet's height in points (400, at most the frame's height).", valueName: "h"))
    var height: Double?

    var options: EffectOptions {
        var o = EffectOptions()
        o.zoom = zoom; o.center = center; o.startRadius = startRadius; o.endRadius = endRadius
        o.color = color; o.perspective = perspective; o.shadow = shadow
        o.fromRect = fromRect; o.toRect = toRect; o.fromRadius = fromRadius; o.toRadius = toRadius
        o.height = height
        return o
    }
}
