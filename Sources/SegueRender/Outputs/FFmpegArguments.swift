import SegueCore

/// Arguments for the ffmpeg that writes a video, given by the caller in place of the codec's: split like a
/// shell splits words (single and double quotes, backslash escapes), and checked to be options with their
/// values only, so that they cannot add an input or an output that bypasses the video's temporary file.
public enum FFmpegArguments {
    /// Options without a value (ffmpeg's boolean options); any other option takes the word after it.
    static let flags: Set<String> = [
        "-an", "-vn", "-sn", "-dn", "-shortest", "-copyts", "-start_at_zero", "-accurate_seek", "-noaccurate_seek",
        "-stats", "-nostats", "-hide_banner", "-nostdin", "-stdin", "-benchmark", "-benchmark_all", "-xerror",
        "-ignore_unknown", "-copy_unknown", "-debug_ts", "-qphist", "-autorotate", "-noautorotate", "-autoscale",
        "-noautoscale", "-fix_sub_duration", "-bitexact",
    ]
    /// Options that read or write files of their own, or change what the video is: refused.
    static let refused: Set<String> = [
        "-i", "-f", "-progress", "-vstats", "-vstats_file", "-passlogfile", "-report", "-dump_attachment", "-attach",
        "-filter_script", "-filter_complex_script", "-sdp_file", "-y", "-n",
    ]

    /// The words of `text`, as a shell splits them; a quote left open is an error.
    public static func split(_ text: String) throws -> [String] {
        var words: [String] = [], word = "", inWord = false
        var quote: Character?, escaped = false
        for c in text {
            if escaped {
                word.append(c)
                escaped = false
            } else if let q = quote {
                if c == q { quote = nil } else if c == "\\" && q == "\"" { escaped = true } else { word.append(c) }
            } else if c == "\\" {
                escaped = true
                inWord = true
            } else if c == "'" || c == "\"" {
                quote = c
                inWord = true
            } else if c.isWhitespace {
                if inWord { words.append(word) }
                word = ""
                inWord = false
            } else {
                word.append(c)
                inWord = true
            }
        }
        if quote != nil || escaped {
            throw SegueError.invalidOption("ffmpegArguments", value: text, "the ffmpeg arguments '\(text)' end inside a quote or after a backslash")
        }
        if inWord { words.append(word) }
        return words
    }

    /// Checks that `arguments` are options and their values only: no input, no output of their own, no format
    /// (the video's extension decides it).
    public static func check(_ arguments: [String]) throws {
        var i = 0
        while i < arguments.count {
            let word = arguments[i]
            guard isOption(word) else {
                throw SegueError.invalidOption("ffmpegArguments", value: word, "the ffmpeg arguments may hold only options and their values: '\(word)' would be an output of its own")
            }
            let name = String(word.prefix { $0 != ":" })
            if refused.contains(name) {
                throw SegueError.invalidOption("ffmpegArguments", value: word, "the ffmpeg arguments may not use \(word): Segue gives ffmpeg its input, output and format")
            }
            if flags.contains(name) {
                i += 1
                continue
            }
            guard i + 1 < arguments.count else {
                throw SegueError.invalidOption("ffmpegArguments", value: word, "the ffmpeg argument \(word) needs a value after it")
            }
            i += 2
        }
    }

    /// A word that is an option: a dash and a name, not a negative number.
    static func isOption(_ word: String) -> Bool {
        word.count > 1 && word.hasPrefix("-") && Double(word) == nil
    }

    /// Whether `word` sets video filters (the caller's own filters replace Segue's pad).
    static func isFilterOption(_ word: String) -> Bool {
        ["-vf", "-filter", "-filter:v", "-lavfi", "-filter_complex"].contains(word)
    }
}
