/// Output formats of `--format`.
enum OutputFormat: String, CaseIterable {
    case png, rgba, y4m
}
