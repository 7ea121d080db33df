/// What a terminal of a given width shows after some output: printable characters wrap at the
/// right margin (as xterm's auto-wrap does), `\r` returns, `\n` goes down, and the CSI sequences
/// the tools use act (`A` cursor up, `K` erase in line, `J` erase below; colours are ignored).
/// A tool that writes a line wider than the terminal and then tries to redraw it in place leaves
/// debris here exactly as it would on screen.
struct TerminalScreen {
    let width: Int
    private(set) var rows: [[Character]] = [[]]
    private var row = 0, column = 0

    init(width: Int) { self.width = width }

    init(width: Int, output: String) {
        self.init(width: width)
        feed(output)
    }

    var lines: [String] { rows.map { String($0).replacingOccurrences(of: "\u{0}", with: " ") } }

    mutating func feed(_ text: String) {
        // Unicode scalars, not Characters: Swift makes "\r\n" one Character, a terminal sees two bytes.
        var chars = text.unicodeScalars.map(Character.init)
        var i = 0
        while i < chars.count {
            let c = chars[i]
            i += 1
            switch c {
            case "\r": column = 0
            case "\n": moveDown()
            case "\u{1B}":
                guard i < chars.count, chars[i] == "[" else { continue }
                i += 1
                var parameter = ""
                while i < chars.count, !chars[i].isLetter { parameter.append(chars[i]); i += 1 }
                guard i < chars.count else { return }
                let final = chars[i]
                i += 1
                let n = Int(parameter) ?? 0
                switch final {
                case "A": row = max(0, row - max(1, n))
                case "K":
                    if n == 2 { rows[row] = [] } else { rows[row] = Array(rows[row].prefix(column)) }
                case "J":
                    rows[row] = Array(rows[row].prefix(column))
                    rows.removeSubrange((row + 1)...)
                default: break
                }
            default:
                if column >= width { moveDown(); column = 0 }
                while rows[row].count < column { rows[row].append("\u{0}") }
                if column < rows[row].count { rows[row][column] = c } else { rows[row].append(c) }
                column += 1
            }
        }
        chars.removeAll()
    }

    private mutating func moveDown() {
        row += 1
        if row == rows.count { rows.append([]) }
    }
}
