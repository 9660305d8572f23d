# Sourced by the benchmark scripts once `root` is set: HIG is the install build of hig-audit (release,
# Swift runtime linked in, as the README builds it), built now unless HIG already names a binary.
if [ -z "${HIG:-}" ]; then
    echo "== building (release, Swift runtime linked in: the README's install build)" >&2
    swift build -c release --static-swift-stdlib --package-path "$root" --product hig-audit >&2
    HIG="$(swift build -c release --static-swift-stdlib --package-path "$root" --show-bin-path)/hig-audit"
fi
