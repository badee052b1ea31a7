import Foundation

/// What the readers of storyboards and effect files share: problems collected at their JSON paths
/// (`$.timeline[2].duration`) rather than thrown at the first, so one run names every problem; the document's
/// root object; keys that are not known; and paths that stay readable for any key.
protocol JSONProblemReader {
    var problems: [JSONProblem] { get set }
}

extension JSONProblemReader {
    mutating func problem(_ path: String, _ message: String) {
        problems.append(JSONProblem(path, message))
    }

    /// The root object of `data`; nil, with a problem at `$`, when it is not JSON or not an object (`expected`
    /// says what should be there).
    mutating func rootObject(_ data: Data, expected: String) -> [String: Any]? {
        let root: Any
        do {
            root = try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
        } catch {
            let detail = ((error as NSError).userInfo["NSDebugDescription"] as? String) ?? "not valid JSON"
            problems.append(JSONProblem.syntax(detail, in: [UInt8](data)))
            return nil
        }
        guard let object = root as? [String: Any] else {
            problem("$", "expected \(expected)")
            return nil
        }
        // JSONSerialization keeps the last of a key given twice: the file would mean less than it says.
        let duplicates = JSONDuplicateKeys.find(in: data)
        for (steps, name) in duplicates {
            let path = steps.reduce("$") { path, step in
                switch step {
                case let .key(k): return path + key(k)
                case let .index(i): return path + "[\(i)]"
                }
            }
            problem(path + key(name), "the key '\(name)' is given twice in one object")
        }
        return duplicates.isEmpty ? object : nil
    }

    /// A problem for each key of `object` not in `allowed`, saying which are (`$schema` and `comment`, allowed
    /// everywhere, go unsaid).
    mutating func unknownKeys(_ object: [String: Any], _ path: String, allowed: Set<String>) {
        for k in object.keys.sorted() where !allowed.contains(k) {
            problem(path + key(k), "unknown key (expected \(allowed.filter { !$0.hasPrefix("$") && $0 != "comment" }.sorted().joined(separator: ", ")))")
        }
    }

    /// `.name`, or `["name"]` when the name is not an identifier.
    func key(_ name: String) -> String {
        JSONProblem.pathStep(key: name)
    }
}

/// The keys a JSON text gives twice in one object, which `JSONSerialization` reads without a word (the last
/// wins). One pass over the bytes of a text already read as valid JSON, keeping the keys of each open object;
/// each key given twice is found once, with the path of the object holding it, and the pass stops at the
/// `limit`th: a hostile file could repeat keys in every one of a million objects.
enum JSONDuplicateKeys {
    enum Step: Equatable { case key(String), index(Int) }

    static let limit = 10

    static func find(in data: Data) -> [(path: [Step], key: String)] {
        /// An open object or list: the keys seen so far and whether a key comes next, or the item's index.
        struct Level {
            var isObject: Bool
            var keys: Set<String> = []
            var repeated: Set<String> = []
            var expectingKey = true
            var lastKey = ""
            var index = 0
            var step: Step { isObject ? .key(lastKey) : .index(index) }
        }
        let bytes = utf8(data)
        var levels: [Level] = []
        var found: [(path: [Step], key: String)] = []
        var i = 0
        while i < bytes.count {
            switch bytes[i] {
            case UInt8(ascii: "\""):
                let start = i + 1
                var escaped = false
                i = start
                while i < bytes.count, bytes[i] != UInt8(ascii: "\"") {
                    if bytes[i] == UInt8(ascii: "\\") { escaped = true; i += 1 }
                    i += 1
                }
                if var level = levels.popLast() {
                    if level.isObject && level.expectingKey {
                        // A key with escapes (`\u0061`) is compared as JSON reads it.
                        let name = escaped && i < bytes.count
                            ? (try? JSONSerialization.jsonObject(with: Data(bytes[(start - 1)...i]), options: .fragmentsAllowed)) as? String ?? ""
                            : String(decoding: bytes[start..<min(i, bytes.count)], as: UTF8.self)
                        if !level.keys.insert(name).inserted && level.repeated.insert(name).inserted {
                            found.append((levels.map(\.step), name))
                            if found.count == limit { return found }
                        }
                        level.lastKey = name
                        level.expectingKey = false
                    }
                    levels.append(level)
                }
            case UInt8(ascii: "{"): levels.append(Level(isObject: true))
            case UInt8(ascii: "["): levels.append(Level(isObject: false))
            case UInt8(ascii: "}"), UInt8(ascii: "]"): _ = levels.popLast()
            case UInt8(ascii: ","):
                guard var level = levels.popLast() else { break }
                if level.isObject { level.expectingKey = true } else { level.index += 1 }
                levels.append(level)
            default: break
            }
            i += 1
        }
        return found
    }

    /// The text as UTF-8. JSON may also come as UTF-16 or UTF-32 (JSONSerialization reads them), which UTF-8
    /// JSON never resembles: it holds no zero byte and no byte 0xFE or 0xFF. Which one is told by its byte
    /// order mark, else by where the first character's zero bytes fall (RFC 4627, section 3).
    static func utf8(_ data: Data) -> [UInt8] {
        let bytes = [UInt8](data)
        guard bytes.contains(where: { $0 == 0 || $0 >= 0xFE }) else { return bytes }
        let b = bytes.prefix(4) + repeatElement(1, count: max(0, 4 - bytes.count))
        let encoding: String.Encoding
        switch (b[0], b[1], b[2], b[3]) {
        case (0, 0, 0xFE, 0xFF), (0, 0, 0, _): encoding = .utf32BigEndian
        case (0xFF, 0xFE, 0, 0), (_, 0, 0, 0): encoding = .utf32LittleEndian
        case (0xFE, 0xFF, _, _), (0, _, _, _): encoding = .utf16BigEndian
        case (0xFF, 0xFE, _, _), (_, 0, _, _): encoding = .utf16LittleEndian
        default: return bytes
        }
        return String(data: data, encoding: encoding).map { Array($0.utf8) } ?? bytes
    }
}

/// A JSON number as `JSONSerialization` gives it (booleans come as NSNumber too; their type is `c`).
enum JSONNumber {
    static func value(_ v: Any) -> Double? {
        guard let n = v as? NSNumber, String(cString: n.objCType) != "c" else { return nil }
        return n.doubleValue
    }
}
