import IMUCore
import FoundationEssentials

/// Text from files and from the bus, made safe for a terminal or the journal: IMUCore's one
/// escaping rule (`escapedForTerminal`), on a single line (newlines escaped too), cut at 200
/// characters.
public enum Printable {
    public static func escape(_ text: String) -> String {
        var cut = String.UnicodeScalarView()
        cut.append(contentsOf: text.unicodeScalars.prefix(200))
        return String(cut).escapedForTerminal.replacing("\n", with: "\\n")
    }
}
