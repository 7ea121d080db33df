import IMUCLI

/// `-o walk.svg` (or .png, .json, .gz…) wrote a CSV recording under a name that says another
/// format: an image viewer calls it damaged, `gunzip` refuses it. imu-record writes plain CSV
/// text only; the names of other formats are refused before the sensor is opened (exit 2), as
/// imu-plot refuses a name that is not .svg. Text names (.csv, .txt, .log, none) are taken.
enum OutputName {
    /// Extensions of formats a CSV recording is not (lower-cased).
    static let otherFormats: Set<String> = ["svg", "html", "htm", "png", "jpg", "jpeg", "gif", "webp", "pdf",
                                            "json", "gz", "zip", "xz", "bz2", "zst", "sqlite", "db", "xlsx", "xls", "ods"]

    static func check(_ path: String) throws {
        guard path != "-" else { return }
        let name = path.split(separator: "/").last.map(String.init) ?? path
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return }
        let ext = name[name.index(after: dot)...].lowercased()
        guard otherFormats.contains(ext) else { return }
        let stem = String(path.dropLast(ext.count + 1))
        let csv = RecordingError.shellQuoted(stem.lowercased().hasSuffix(".csv") ? stem : stem + ".csv")
        let then = ["gz", "zip", "xz", "bz2", "zst"].contains(ext)
            ? "compress it afterwards if you like (zcat FILE.gz | imu-steps --replay - reads a gzip one)"
            : ["svg", "png", "pdf", "html", "htm", "jpg", "jpeg", "gif", "webp"].contains(ext)
                ? "draw it with imu-plot --replay \(csv) -o plot.svg" : "docs/file-formats.md describes the columns"
        throw UsageError("-o \(path): imu-record writes a CSV recording (plain text), not .\(ext.escapedValue)", command: "imu-record",
                         fix: "name it .csv: -o \(csv); then \(then)")
    }
}
