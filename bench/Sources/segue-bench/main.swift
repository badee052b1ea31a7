import Foundation
import SegueBench

// segue-bench: the benchmark harness (bench/Sources/SegueBench/Bench.swift says what it measures and takes).
exit(Bench.main(Array(CommandLine.arguments.dropFirst())))
