/// A path name taken apart by its bytes. Foundation's `NSString` path methods trap on some valid Unicode (the
/// storyboard fuzzer found `.\u{10FFFF}🇺//\u{10FFFF}` as an output's name), and a path here is whatever a user
/// or a file names, so Segue takes its paths apart into directory, last component and extension here, never
/// through `NSString`. `/` and `.` are ASCII, and UTF-8 never uses an ASCII byte inside a longer code point, so
/// cutting at them never splits a Unicode scalar (a combining mark after a `/` is cut from it, as the kernel
/// reads the name). A program that takes apart paths its users give (a server's, say) has the same need: it is
/// public, and `import Segue` gives it.
///
/// `last`, `parent` and `extension` answer as `NSString` does wherever it answers: repeated and trailing
/// slashes count as one, `/` is its own last component and parent, and nothing is resolved (`..` stays `..`).
/// `join` only puts a `/` between the two where the directory does not end in one: `a//` + `b` is `a//b`.
public enum PathName {
    private static let slash = UInt8(ascii: "/"), dot = UInt8(ascii: ".")

    /// The path without trailing slashes, or `/` when it is nothing but slashes.
    private static func trimmed(_ path: String) -> Substring.UTF8View {
        let bytes = Substring(path).utf8
        guard let end = bytes.lastIndex(where: { $0 != slash }) else { return bytes.prefix(bytes.isEmpty ? 0 : 1) }
        return bytes[...end]
    }

    /// The last component: `a/b.png` → `b.png`, `a/b/` → `b`, `/` → `/`, `` → ``.
    public static func last(_ path: String) -> String {
        let bytes = trimmed(path)
        guard bytes.count > 1, let cut = bytes.lastIndex(of: slash) else { return String(Substring(bytes)) }
        return String(Substring(bytes[bytes.index(after: cut)...]))
    }

    /// What holds the last component: `a/b` → `a`, `a//b/` → `a`, `/b` → `/`, `b` → ``, `/` → `/`.
    public static func parent(_ path: String) -> String {
        let bytes = trimmed(path)
        guard let cut = bytes.lastIndex(of: slash) else { return "" }
        guard let end = bytes[..<cut].lastIndex(where: { $0 != slash }) else { return "/" }
        return String(Substring(bytes[...end]))
    }

    /// The directory to open for the last component: its parent, or `.` when the path names none.
    public static func directory(_ path: String) -> String {
        let parent = parent(path)
        return parent.isEmpty ? "." : parent
    }

    /// `name` inside `directory`: `a` + `b` → `a/b`, `a/` + `b` → `a/b`, `` + `b` → `b`.
    public static func join(_ directory: String, _ name: String) -> String {
        directory.isEmpty ? name : directory.utf8.last == slash ? directory + name : directory + "/" + name
    }

    /// The last component's extension without its dot, as written: `a/b.MP4` → `MP4`, `a.tar.gz` → `gz`,
    /// `a.b/` → `b`; none (``) for `.mp4`, `a.` and `..`.
    public static func `extension`(_ path: String) -> String {
        let name = last(path).utf8
        guard let cut = name.lastIndex(of: dot), cut != name.startIndex else { return "" }
        return String(Substring(name[name.index(after: cut)...]))
    }
}
