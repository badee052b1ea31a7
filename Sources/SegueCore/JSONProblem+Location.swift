import Foundation

// Where a problem's JSON path is in the document's text, so that an editor can mark the line (`segue studio`)
// and a syntax error says `line 3, column 8` rather than a byte offset.

extension JSONProblem {
    /// A path's step for an object's key, as every problem writes it: `.name`, or `["name"]` when the name is
    /// not an identifier.
    public static func pathStep(key name: String) -> String {
        let identifier = !name.isEmpty && name.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "-" }
        return identifier ? ".\(name)" : "[\"\(name)\"]"
    }

    /// `problems`, each without a place given one from `text`: where the longest part of its path that the text
    /// has starts (a missing key is placed at the object that lacks it; `$` at the document's first value).
    /// Problems already placed keep their place; text that is no JSON places nothing past where it breaks.
    public static func locate(_ problems: [JSONProblem], in text: Data) -> [JSONProblem] {
        let unplaced = problems.filter { $0.line == nil }.map(\.path)
        let bytes = [UInt8](text)
        guard !unplaced.isEmpty, isUTF8(bytes) else { return problems }
        var walker = PathWalker(bytes: bytes, wanted: Set(unplaced))
        walker.walk()
        let offsets = problems.map { $0.line == nil ? walker.offset(of: $0.path) : nil }
        let places = lineAndColumn(ofBytes: Set(offsets.compactMap { $0 }), in: bytes)
        return zip(problems, offsets).map { problem, offset in
            guard let offset, let place = places[offset] else { return problem }
            var placed = problem
            (placed.line, placed.column) = place
            return placed
        }
    }

    /// The line and column of each of `offsets`, in one pass over the text (a file of many problems is not
    /// read once for each).
    static func lineAndColumn(ofBytes offsets: Set<Int>, in bytes: [UInt8]) -> [Int: (line: Int, column: Int)] {
        var places: [Int: (line: Int, column: Int)] = [:]
        var line = 1, column = 1, at = 0
        for offset in offsets.sorted() {
            while at < min(offset, bytes.count) {
                if bytes[at] == UInt8(ascii: "\n") {
                    line += 1
                    column = 1
                } else if bytes[at] & 0xC0 != 0x80 {
                    column += 1
                }
                at += 1
            }
            places[offset] = (line, column)
        }
        return places
    }

    /// The line and column (each from 1; the column in Unicode scalars) of the byte at `offset` of UTF-8 text.
    /// (A continuation byte is part of the scalar already counted.)
    public static func lineAndColumn(ofByte offset: Int, in bytes: [UInt8]) -> (line: Int, column: Int) {
        lineAndColumn(ofBytes: [max(0, offset)], in: bytes)[max(0, offset)]!
    }

    /// Whether a JSON text is UTF-8, where byte offsets are what this file counts (JSON may come as UTF-16
    /// or UTF-32, whose first bytes hold a zero or a byte-order mark; such text is not placed).
    static func isUTF8(_ bytes: [UInt8]) -> Bool {
        !bytes.prefix(4).contains(0) && !bytes.starts(with: [0xFE, 0xFF]) && !bytes.starts(with: [0xFF, 0xFE])
    }

    /// What `JSONSerialization` said of text that is no JSON, placed: its byte offset ("around character 347")
    /// as a line and column, and an end of file at the text's end. The message is the detail without its place
    /// (`not valid JSON: Invalid value`); the problem's `description` says the place.
    static func syntax(_ detail: String, in bytes: [UInt8]) -> JSONProblem {
        guard isUTF8(bytes) else { return JSONProblem("$", "not valid JSON: \(detail)") }
        var words = detail
        let offset: Int
        if let match = detail.range(of: #"around character [0-9]+"#, options: .regularExpression),
           let n = Int(detail[match].split(separator: " ").last ?? "") {
            words.replaceSubrange(match, with: "")
            offset = min(n, bytes.count)
        } else {
            // "Unexpected end of file", or a message without a place: the text's end, or its start.
            offset = detail.lowercased().contains("end of file") ? bytes.count : 0
        }
        words = words.replacingOccurrences(of: "  ", with: " ").trimmingCharacters(in: .whitespaces)
        while words.hasSuffix(".") || words.hasSuffix(" ") { words.removeLast() }
        let (line, column) = lineAndColumn(ofByte: offset, in: bytes)
        return JSONProblem("$", "not valid JSON: \(words)", line: line, column: column, isSyntaxError: true)
    }
}

/// One pass over a JSON text noting where each path that leads to a wanted one starts: an object's member at
/// its key, a list's item at its value. Stops where the text is no JSON or nests deeper than `maxDepth` (the
/// pass recurses: a problem deeper than any real file nests is placed at what was noted before).
private struct PathWalker {
    let bytes: [UInt8]
    let wanted: Set<String>
    var at = 0
    var found: [String: Int] = [:]
    static let maxDepth = 128

    /// Whether a path leads to (or is) one that is wanted.
    func leads(_ path: String) -> Bool {
        wanted.contains { $0 == path || $0.hasPrefix(path) && ["." as Character, "["].contains($0.dropFirst(path.count).first) }
    }

    mutating func walk() {
        space()
        guard at < bytes.count else { return }
        found["$"] = at
        _ = value("$", depth: 0)
    }

    /// The offset of the longest noted path that `path` starts with.
    func offset(of path: String) -> Int? {
        var best: (length: Int, offset: Int)?
        for (noted, offset) in found where noted == path || path.hasPrefix(noted) && [".", "["].contains(path.dropFirst(noted.count).first) {
            if best == nil || noted.count > best!.length { best = (noted.count, offset) }
        }
        return best?.offset
    }

    mutating func space() {
        while at < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[at]) { at += 1 }
    }

    /// Reads the value at `at`; false where the text breaks off.
    mutating func value(_ path: String, depth: Int) -> Bool {
        space()
        guard at < bytes.count, depth < Self.maxDepth else { return false }
        let follow = leads(path)
        switch bytes[at] {
        case UInt8(ascii: "{"):
            at += 1
            space()
            if at < bytes.count, bytes[at] == UInt8(ascii: "}") { at += 1; return true }
            while true {
                space()
                guard at < bytes.count, bytes[at] == UInt8(ascii: "\"") else { return false }
                let keyAt = at
                guard let name = string() else { return false }
                let member = follow ? path + JSONProblem.pathStep(key: name) : path
                if follow { found[member] = keyAt }
                space()
                guard at < bytes.count, bytes[at] == UInt8(ascii: ":") else { return false }
                at += 1
                guard value(member, depth: depth + 1) else { return false }
                space()
                guard at < bytes.count else { return false }
                if bytes[at] == UInt8(ascii: ",") { at += 1; continue }
                if bytes[at] == UInt8(ascii: "}") { at += 1; return true }
                return false
            }
        case UInt8(ascii: "["):
            at += 1
            space()
            if at < bytes.count, bytes[at] == UInt8(ascii: "]") { at += 1; return true }
            var index = 0
            while true {
                space()
                let item = follow ? path + "[\(index)]" : path
                if follow { found[item] = at }
                guard value(item, depth: depth + 1) else { return false }
                space()
                guard at < bytes.count else { return false }
                if bytes[at] == UInt8(ascii: ",") { at += 1; index += 1; continue }
                if bytes[at] == UInt8(ascii: "]") { at += 1; return true }
                return false
            }
        case UInt8(ascii: "\""):
            return string() != nil
        default:
            // A number, true, false or null: up to the next delimiter.
            let start = at
            while at < bytes.count, !",}] \t\r\n".utf8.contains(bytes[at]) { at += 1 }
            return at > start
        }
    }

    /// The string starting at `at` (a quote), its escapes read; nil where it does not end.
    mutating func string() -> String? {
        at += 1
        var scalars = String.UnicodeScalarView()
        var run: [UInt8] = []
        func flush() {
            scalars.append(contentsOf: String(decoding: run, as: UTF8.self).unicodeScalars)
            run.removeAll()
        }
        while at < bytes.count {
            let byte = bytes[at]
            at += 1
            if byte == UInt8(ascii: "\"") {
                flush()
                return String(scalars)
            }
            guard byte == UInt8(ascii: "\\") else { run.append(byte); continue }
            guard at < bytes.count else { return nil }
            let escape = bytes[at]
            at += 1
            switch escape {
            case UInt8(ascii: "n"): run.append(0x0A)
            case UInt8(ascii: "t"): run.append(0x09)
            case UInt8(ascii: "r"): run.append(0x0D)
            case UInt8(ascii: "b"): run.append(0x08)
            case UInt8(ascii: "f"): run.append(0x0C)
            case UInt8(ascii: "u"):
                guard at + 4 <= bytes.count, let unit = UInt32(String(decoding: bytes[at..<at + 4], as: UTF8.self), radix: 16) else { return nil }
                at += 4
                var code = unit
                // A surrogate pair: the low half follows as another \u.
                if (0xD800..<0xDC00).contains(unit), at + 6 <= bytes.count, bytes[at] == UInt8(ascii: "\\"), bytes[at + 1] == UInt8(ascii: "u"),
                   let low = UInt32(String(decoding: bytes[at + 2..<at + 6], as: UTF8.self), radix: 16), (0xDC00..<0xE000).contains(low) {
                    at += 6
                    code = 0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00)
                }
                flush()
                scalars.append(Unicode.Scalar(code) ?? "\u{FFFD}")
            default: run.append(escape)   // \" \\ \/
            }
        }
        return nil
    }
}
