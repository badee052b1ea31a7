import Foundation
import SegueCore

extension RenderJob {
    /// Whether paths stay within a root directory, after `..` and symbolic links are resolved: the one place
    /// that decides it, for what a job reads (screens, clips, tracks, shaders, shaders' images, effect files,
    /// the storyboard file) and what it writes.
    struct Root: Sendable {
        /// The root as given, for messages.
        let name: String
        /// The root's real path (symbolic links resolved); nil when it does not exist.
        let real: String?

        init(_ root: String) {
            name = root
            real = Self.realPath(root)
        }

        /// Nil when `path` lies within the root; else why not, naming the path.
        func problem(_ path: String) -> String? {
            guard let real else { return "the root '\(name)' is not an existing directory, so '\(path)' cannot be checked to lie within it" }
            guard let resolved = Self.resolved(path), resolved == real || resolved.hasPrefix(real == "/" ? "/" : real + "/") else {
                return "'\(path)' is outside the root '\(name)'"
            }
            return nil
        }

        /// Throws a `SegueError` (kind `inputUnreadable`, for what a storyboard's parsing reads) when `path` is
        /// outside the root.
        func check(reading path: String) throws(SegueError) {
            if let problem = problem(path) { throw SegueError(.inputUnreadable(path: path), problem) }
        }

        /// `path` made absolute, its longest existing prefix resolved by `realpath` (symbolic links, `..`) and
        /// the rest, which does not exist and so holds no link, resolved by its names; nil when a prefix is a
        /// link that leads nowhere (what it names could be created anywhere).
        static func resolved(_ path: String) -> String? {
            let absolute = path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
            let names = absolute.split(separator: "/").map(String.init)
            for kept in stride(from: names.count, through: 0, by: -1) {
                let prefix = "/" + names[..<kept].joined(separator: "/")
                guard let real = realPath(prefix) else {
                    var info = stat()
                    if lstat(prefix, &info) == 0 && info.st_mode & S_IFMT == S_IFLNK { return nil }
                    continue
                }
                var parts = real.split(separator: "/").map(String.init)
                for name in names[kept...] {
                    switch name {
                    case "", ".": continue
                    case "..": _ = parts.popLast()
                    default: parts.append(name)
                    }
                }
                return "/" + parts.joined(separator: "/")
            }
            return nil
        }

        private static func realPath(_ path: String) -> String? {
            guard let p = realpath(path, nil) else { return nil }
            defer { free(p) }
            return String(cString: p)
        }
    }

    /// The reader of what a storyboard names, confined to `root` when there is one.
    static func confined(_ resolve: @escaping @Sendable (String) -> String, to root: String?) -> @Sendable (String) throws -> String {
        guard let root else { return resolve }
        let confinement = Root(root)
        return { path in
            let resolved = resolve(path)
            try confinement.check(reading: resolved)
            return resolved
        }
    }

    /// Every path the job reads and writes lies within `root` (usage errors, before anything is read): the
    /// screens and clips (a storyboard file's at their JSON paths, with its other problems) and the outputs.
    /// What a storyboard's steps read (tracks, shaders, effect files) was confined as it was parsed.
    /// `outputs`: whether the job writes its outputs (not when its frames go to memory).
    func checkRoot(outputs checkOutputs: Bool) throws {
        guard let root else { return }
        let confinement = Root(root)
        let resolve = Self.resolver(storyboardFile)
        var screenProblems: [JSONProblem] = []
        // Every screen, used or not, as `Screens.load` reads every one.
        for name in storyboard.usedScreens + storyboard.screens.keys.sorted().filter({ !storyboard.usedScreens.contains($0) }) {
            guard let source = storyboard.screens[name], !source.hasPrefix("sample:"), !source.hasPrefix(Screens.memoryPrefix),
                  let problem = confinement.problem(resolve(source)) else { continue }
            if storyboardFile != nil {
                screenProblems.append(JSONProblem("$.screens.\(name)", problem))
            } else {
                throw SegueError.invalidOption("screen", value: source, problem)
            }
        }
        if let file = storyboardFile, !screenProblems.isEmpty {
            throw SegueError(.invalidInput(path: file), lines: (parseProblems + screenProblems).map { "\(file): \($0)" })
        }
        for output in outputs where checkOutputs {
            switch output {
            case let .frames(path), let .image(path), let .stream(path, _, _), let .video(path, _):
                if path == "-" { continue }
                if let problem = confinement.problem(path) { throw SegueError.invalidOption("output", value: path, problem) }
            case .sink:
                continue
            }
        }
    }
}
