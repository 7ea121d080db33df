#if canImport(Glibc)
import Glibc
#endif
import IMUCLI
import IMUPlot

/// imu-plot's flags, checked before any file is read.
struct PlotOptions: Sendable {
    enum Input: Sendable {
        case replay(String)
        case simulate(String, seed: UInt64)
        /// `--day [DATE]`: DATE as given (nil = today).
        case day(String?)
    }

    /// `-o plot.png` wrote SVG text under a PNG name (an image viewer then calls it damaged),
    /// `-o plot.txt` SVG under a text name (an editor or a script expecting text got markup), and
    /// `-o DIR` failed only at the end as an I/O error (exit 1): all are usage errors, said first.
    /// imu-plot has one format per input, so only its extension is honoured (.svg; .html or .htm
    /// with --day); a name without an extension is taken as given.
    static func checkOutputName(_ out: String, html: Bool, command: String) throws {
        guard out != "-" else { return }
        var st = stat()
        if out.hasSuffix("/") || (stat(out, &st) == 0 && (st.st_mode & S_IFMT) == S_IFDIR) {
            throw UsageError("-o \(out) is a directory", command: command,
                             fix: "name a file inside it, e.g. -o \(out.hasSuffix("/") ? out : out + "/")\(html ? "day.html" : "plot.svg")")
        }
        // A missing directory failed only once the plot was drawn, as an I/O error (exit 1) sent to
        // "/tmp": the path is what is wrong (exit 2, as imu-record says it), and mkdir the fix.
        if let slash = out.lastIndex(of: "/"), slash != out.startIndex {
            let directory = String(out[..<slash])
            let found = stat(directory, &st) == 0, failure = errno
            if !found && failure == ENOENT {
                throw UsageError("-o \(out): the directory \(directory) does not exist", command: command,
                                 fix: "create it first (mkdir -p \(RecordingError.shellQuoted(directory))) or choose another place for the plot")
            }
            if (found && (st.st_mode & S_IFMT) != S_IFDIR) || (!found && failure == ENOTDIR) {
                throw UsageError("-o \(out): \(directory) is not a directory", command: command,
                                 fix: "a part of the path before the file name is a file: check it (ls -ld \(RecordingError.shellQuoted(directory))) or choose another place for the plot")
            }
        }
        let name = out.split(separator: "/").last.map(String.init) ?? out
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex, name.index(after: dot) != name.endIndex else { return }
        let ext = name[name.index(after: dot)...].lowercased()
        let wanted = html ? "html" : "svg"
        guard ext != wanted, !(html && ext == "htm") else { return }
        // `plot.svg.tmp` becomes `plot.svg`, not `plot.svg.svg`.
        let stem = String(out.dropLast(ext.count + 1))
        let renamed = RecordingError.shellQuoted(stem.lowercased().hasSuffix("." + wanted) ? stem : stem + "." + wanted)
        let asked = RecordingError.shellQuoted(out)
        // A picture is one conversion away from the SVG (rsvg-convert writes PNG and PDF,
        // ImageMagick the rest); an HTML page is not, and no other format is a picture.
        let pictures = ["png", "jpg", "jpeg", "gif", "webp", "pdf", "bmp", "tif", "tiff"]
        let convert = html || !pictures.contains(ext) ? ""
            : ["png", "pdf"].contains(ext) ? ", then for a .\(ext): rsvg-convert -f \(ext) -o \(asked) \(renamed) (package librsvg2-bin)"
            : ", then for a .\(ext): convert \(renamed) \(asked) (package imagemagick)"
        throw UsageError("-o \(out): imu-plot writes \(html ? "an HTML page" : "SVG"), not .\(ext.escapedValue) "
                            + "(it writes .svg for --replay and --simulate, .html for --day)", command: command,
                         fix: "name it .\(wanted): -o \(renamed)\(convert)")
    }

    static let defaultWidth = 1200
    /// Narrower than 400 px leaves no room for the panels' labels; wider than 20 000 px is no
    /// screen, and the SVG grows with the width.
    static let widthRange = 400...20_000

    var input: Input
    var out: String
    var span: PlotSpan
    var width: Int

    init(_ args: ParsedArguments) throws {
        try args.exclusive(["replay", "simulate", "day"])
        if args.flag("day") {
            guard args.positionals.count <= 1 else {
                throw UsageError("--day takes one date, got \(args.positionals.joined(separator: " ").escapedValue)", command: args.command,
                                 fix: "give one: --day today, --day yesterday or --day YYYY-MM-DD (e.g. --day 2026-12-01); plot another day with another run")
            }
            input = .day(args.positionals.first)
            for option in ["from", "to", "width", "seed", "raw", "height", "stride", "floor-height"] where args.string(option) != nil {
                throw UsageError("--\(option) goes with --replay or --simulate, not --day", command: args.command,
                                 fix: "leave out --\(option) with --day (a day plot covers the whole day from the history), or draw a recording: --replay FILE --\(option) …")
            }
        } else if let stray = args.positionals.first {
            throw UsageError("unexpected argument '\(stray.escapedValue)' (a date goes with --day)", command: args.command,
                             fix: stray.hasSuffix(".csv") || stray.contains("/") ? "give a recording with --replay: --replay \(stray.escapedValue)"
                                : "put --day before the date (--day \(stray.escapedValue)), or give the input with --replay FILE or --simulate NAME")
        } else if let file = args.string("replay") {
            input = .replay(file)
        } else if let name = args.string("simulate") {
            let seed = try args.integer("seed", in: 0...Int(Int32.max)) ?? 1
            input = .simulate(name, seed: UInt64(seed))
        } else {
            throw UsageError("nothing to draw: give --replay FILE, --simulate NAME or --day [DATE]", command: args.command,
                             fix: "e.g. imu-plot --replay walk.csv -o walk.svg, imu-plot --simulate walk -o walk.svg, or imu-plot --day -o today.html")
        }
        if args.string("seed") != nil, case .replay = input {
            throw UsageError("--seed goes with --simulate", command: args.command,
                             fix: "leave out --seed with --replay: a recording has no random draws to seed")
        }
        if args.string("history") != nil, !args.flag("day") {
            throw UsageError("--history goes with --day", command: args.command,
                             fix: "add --day (e.g. --day today --history FILE), or leave out --history to draw a recording or a simulation")
        }
        guard let out = args.string("out"), !out.isEmpty else {
            throw UsageError("no output file: imu-plot writes a plot file and never draws on the terminal", command: args.command,
                             fix: "give -o FILE (e.g. -o walk.svg; -o day.html with --day), or -o - for standard output")
        }
        self.out = out
        var isDay = false
        if case .day = input { isDay = true }
        // -o naming the recording (or history) being drawn replaced it with the plot: the input lost.
        let read: String? = switch input {
        case let .replay(file): file
        case .day: args.string("history") ?? DayPlot.defaultHistory
        case .simulate: nil
        }
        if let read, read != "-", out != "-", OutputGuard.sameFile(read, out) {
            throw UsageError("-o \(out) is the \(isDay ? "history" : "recording") being drawn: the plot would replace it", command: args.command,
                             fix: "name the plot apart, e.g. -o \(isDay ? "day.html" : "plot.svg")")
        }
        // After the check above: `-o walk.csv` naming the recording is told that, not its extension.
        try Self.checkOutputName(out, html: isDay, command: args.command)
        width = try args.integer("width", in: Self.widthRange) ?? Self.defaultWidth
        let from = try args.string("from").map { try Self.seconds($0, option: "from", command: args.command) }
        let to = try args.string("to").map { try Self.seconds($0, option: "to", command: args.command) }
        if let from, let to, to <= from, let fromText = args.string("from"), let toText = args.string("to") {
            // The two swapped is the likely slip; equal ones are a view of no time.
            let fix = to < from ? "swap them: --from \(toText) --to \(fromText)"
                : "give --to a time after --from \(fromText), or leave --to out for the end of the recording"
            throw UsageError("--to must come after --from (got --from \(fromText) --to \(toText))", command: args.command, fix: fix)
        }
        if from == nil, let to, to <= 0, let toText = args.string("to") {
            // `--to 0` alone drew a plot of no time and said "wrote x.svg".
            throw UsageError("--to \(toText) is the first sample: the view would hold no time", command: args.command,
                             fix: "give --to a time after the start (seconds or m:ss, e.g. --to 1:30), or leave --to out for the end of the recording")
        }
        span = PlotSpan(from: from, to: to)
    }

    /// Seconds after the first sample: `90`, `90.5`, `1:30`, `1:02:03`.
    static func seconds(_ text: String, option: String, command: String) throws -> Double {
        guard let seconds = ClockSeconds.parse(text) else {
            throw UsageError("--\(option) needs seconds after the first sample, got '\(text.escapedValue)'", command: command,
                             fix: "write seconds (--\(option) 90, --\(option) 90.5) or m:ss / h:mm:ss (--\(option) 1:30, --\(option) 1:02:03)")
        }
        return seconds
    }
}
