#!/usr/bin/env bash
# Checks that the library names no command-line flag: no string literal in the library's Swift sources
# (Sources/Segue{Core,CPU,GLES,ImageIO,Render,Samples,Doctor}, and the studio's server, Sources/SegueStudio, which
# is told its client's words) and no string in its effect files
# (Sources/SegueCore/Effects/Catalog/*.json) holds a `--word`. The library's messages say what is wrong in its own terms
# (the job's `overwrite`, the effect's option `edge`); only the command line (Sources/segue) says `--overwrite`.
# Comments (`//`, `///`) may mention flags: only string literals count.
# Usage: scripts/check-library-words.sh    (from anywhere; exit status 1, listing the lines, when any is found)
set -euo pipefail
cd "$(dirname "$0")/.."
found=$(
    # Swift: the text of each string literal ("...", #"..."#, and the lines of """ blocks), comments dropped.
    find Sources/SegueCore Sources/SegueCPU Sources/SegueGLES Sources/SegueImageIO Sources/SegueRender Sources/SegueSamples Sources/SegueDoctor Sources/SegueStudio \
        -name '*.swift' -print0 | sort -z | xargs -0 perl -ne '
        BEGIN { $block = 0 }
        my $line = $_; chomp $line;
        my ($in, $text, $i) = ($block, "", 0);
        while ($i < length $line) {
            my $c = substr($line, $i, 1);
            if (substr($line, $i, 3) eq q(""")) { $in = !$in; $block = $in; $i += 3; next }
            if ($in) {
                if ($c eq "\\") { $text .= substr($line, $i, 2); $i += 2; next }
                if ($c eq q(") && !$block) { $in = 0; $text .= "\n"; $i++; next }
                $text .= $c; $i++; next;
            }
            last if substr($line, $i, 2) eq "//";
            if ($c eq q(")) { $in = 1; $i++; next }
            $i++;
        }
        print "$ARGV:$.: $line\n" if $text =~ /--[a-z]/;
        if (eof) { close ARGV; $block = 0 }
    '
    # The effect files: any string of theirs.
    grep -nHE '"[^"]*--[a-z][^"]*"' Sources/SegueCore/Effects/Catalog/*.json || true
)
if [ -n "$found" ]; then
    echo "check-library-words.sh: the library names command-line flags (say it in the library's terms; the command line adds its flags):" >&2
    echo "$found" >&2
    exit 1
fi
echo "ok   no command-line flags in the library's strings"
