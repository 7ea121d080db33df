/// A date or time of day written in the right shape that names none (2026-02-30, 2026-13-01,
/// 25:00): what does not exist, and the nearest text that does, for a message and its fix.
/// Text of another shape is no slip (nil): the caller's message about the accepted forms applies.
public struct CalendarSlip: Equatable, Sendable {
    /// What does not exist, e.g. "February 2026 has 28 days".
    public var problem: String
    /// `text` with each field brought into its range, e.g. "2026-02-28".
    public var nearest: String

    static let monthNames = ["January", "February", "March", "April", "May", "June", "July",
                             "August", "September", "October", "November", "December"]

    /// Checks `text`: YYYY-MM-DD, HH:MM[:SS], or both joined by "T" or a space.
    public static func of(_ text: String) -> CalendarSlip? {
        let separator = text.firstIndex { $0 == "T" || $0 == " " }
        let parts = separator.map { [text[..<$0], text[text.index(after: $0)...]] } ?? [text[...]]
        var problems: [String] = [], nearest: [String] = []
        for part in parts {
            let isDate = part.contains("-")
            let fields = part.split(separator: isDate ? "-" : ":", omittingEmptySubsequences: false)
            guard isDate ? fields.count == 3 : (2...3).contains(fields.count),
                  fields.allSatisfy({ (1...4).contains($0.count) && $0.allSatisfy { $0.isASCII && $0.isNumber } }) else { return nil }
            var numbers = fields.map { Int($0)! }
            if isDate {
                let (year, month) = (numbers[0], numbers[1])
                if !(1...12).contains(month) {
                    problems.append("there is no month \(month)")
                    numbers[1] = min(max(month, 1), 12)
                }
                let days = LocalTime.daysIn(month: numbers[1], year: year)
                if !(1...days).contains(numbers[2]) {
                    if (1...12).contains(month) { problems.append("\(monthNames[month - 1]) \(year) has \(days) days") }
                    else if numbers[2] == 0 || numbers[2] > 31 { problems.append("there is no day \(numbers[2])") }
                    numbers[2] = min(max(numbers[2], 1), days)
                }
                nearest.append(String(cFormat: "%04ld-%02ld-%02ld", numbers[0], numbers[1], numbers[2]))
            } else {
                if numbers[0] > 23 { problems.append("hours go from 0 to 23 (midnight is 00:00)"); numbers[0] = 23 }
                for i in 1..<numbers.count where numbers[i] > 59 {
                    problems.append("\(i == 1 ? "minutes" : "seconds") go from 0 to 59")
                    numbers[i] = 59
                }
                nearest.append(numbers.map { String(cFormat: "%02ld", $0) }.joined(separator: ":"))
            }
        }
        guard !problems.isEmpty else { return nil }
        let joiner = separator.map { String(text[$0]) } ?? ""
        return CalendarSlip(problem: problems.joined(separator: "; "), nearest: nearest.joined(separator: joiner))
    }
}
