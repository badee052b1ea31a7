import Foundation

/// What the readers of storyboards and effect files share: problems collected at their JSON paths
/// (`$.timeline[2].duration`) rather than thrown at the first, so one run names every problem; the document's
/// root object; keys that are not known; and paths that stay readable for any key.
protocol JSONProblemReader {
    var problems: [StoryboardProblem] { get set }
}

extension JSONProblemReader {
    mutating func problem(_ path: String, _ message: String) {
        problems.append(StoryboardProblem(path, message))
    }

    /// The root object of `data`; nil, with a problem at `$`, when it is not JSON or not an object (`expected`
    /// says what should be there).
    mutating func rootObject(_ data: Data, expected: String) -> [String: Any]? {
        let root: Any
        do {
            root = try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
        } catch {
            let detail = ((error as NSError).userInfo["NSDebugDescription"] as? String) ?? "not valid JSON"
            problem("$", "not valid JSON: \(detail)")
            return nil
        }
        guard let object = root as? [String: Any] else {
            problem("$", "expected \(expected)")
            return nil
        }
        return object
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
        let identifier = !name.isEmpty && name.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "-" }
        return identifier ? ".\(name)" : "[\"\(name)\"]"
    }
}

/// A JSON number as `JSONSerialization` gives it (booleans come as NSNumber too; their type is `c`).
enum JSONNumber {
    static func value(_ v: Any) -> Double? {
        guard let n = v as? NSNumber, String(cString: n.objCType) != "c" else { return nil }
        return n.doubleValue
    }
}
