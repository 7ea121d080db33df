import Testing
@testable import IMUCLI

let testSpec = CommandSpec(
    name: "imu-test", summary: "test", usage: ["[--json]"],
    options: [
        OptionSpec("json", short: "j", help: "json"),
        OptionSpec("replay", short: "r", value: .path("FILE"), help: "file"),
        OptionSpec("rate", value: .number("HZ"), help: "rate"),
        OptionSpec("address", value: .text("ADDR"), help: "address"),
        OptionSpec("bus", value: .integer("N"), help: "bus"),
        OptionSpec("from", value: .seconds("S"), help: "from"),
    ],
    examples: [("imu-test --json", "example")]
)

@Suite struct ArgumentParserTests {
    @Test func longShortAndInlineForms() throws {
        let a = try ArgumentParser.parse(["-j", "--replay", "x.csv", "--rate=50"], spec: testSpec)
        #expect(a.flag("json"))
        #expect(a.string("replay") == "x.csv")
        #expect(try a.double("rate", in: 1...1000) == 50)
        let b = try ArgumentParser.parse(["-r", "y.csv"], spec: testSpec)
        #expect(b.string("replay") == "y.csv")
        #expect(!b.flag("json"))
    }

    @Test func unknownOptionIsAUsageErrorWithAHint() throws {
        let error = #expect(throws: UsageError.self) { try ArgumentParser.parse(["--repaly", "x"], spec: testSpec) }
        #expect(error?.exitStatus == .usage)
        #expect(error?.message.contains("--repaly") == true)
        #expect(error?.message.contains("did you mean --replay") == true)
    }

    /// A typo sharing no three-letter prefix with an option (`--josn`, `--adress`) got only "see
    /// --help", and `-replay` (one dash) no hint at all: the nearest option by edits now, or the
    /// option a name cuts short or extends; nothing when no option is close (`--verbose`).
    @Test func unknownOptionNamesTheNearestOne() throws {
        func hint(_ arguments: [String]) -> String? {
            do { _ = try ArgumentParser.parse(arguments, spec: testSpec); return nil } catch {
                return (error as? UsageError)?.message
            }
        }
        #expect(hint(["--josn"]) == "unknown option --josn (did you mean --json?)")
        #expect(hint(["--adress", "x"]) == "unknown option --adress (did you mean --address?)")
        #expect(hint(["--bsu=1"]) == "unknown option --bsu (did you mean --bus?)")
        #expect(hint(["--raet", "5"]) == "unknown option --raet (did you mean --rate?)")
        #expect(hint(["--fro", "5"]) == "unknown option --fro (did you mean --from?)")
        #expect(hint(["--address-of", "x"]) == "unknown option --address-of (did you mean --address?)")
        #expect(hint(["-replay", "x.csv"]) == "unknown option -replay (did you mean --replay?)")
        #expect(hint(["-json"]) == "unknown option -json (did you mean --json?)")
        #expect(hint(["--verbose"]) == "unknown option --verbose")
        #expect(hint(["--zzz"]) == "unknown option --zzz")
        #expect(hint(["-x"]) == "unknown option -x")
        #expect(NearestOption.edits("verbose", "version") > NearestOption.allowedEdits("verbose"))
        #expect(NearestOption.edits("repaly", "replay") == 1)
    }

    /// imu-record's hand-written usage line lacked five of its options: the lines come from the
    /// table now, value names included, and every option a template leaves out is on the first.
    @Test func usageLinesComeFromTheOptionTable() throws {
        let lines = UsageLines.render(command: "imu-test", templates: ["[--json]", "-r [--from]"], options: testSpec.options)
        #expect(lines == ["imu-test [--json] [--rate HZ] [--address ADDR] [--bus N]",
                          "imu-test -r FILE [--from S]"])
        #expect(testSpec.helpText.contains("Usage:\n  imu-test [--json] [--replay FILE] [--rate HZ] [--address ADDR] [--bus N]\n           [--from S]\n"))
        #expect(UsageLines.unknownNames(["--json [--nope | -z] DATE"], options: testSpec.options) == ["--nope", "-z"])
        // A line wraps between groups, never between an option and its value name.
        let long = OptionSpec(String(repeating: "x", count: 60), value: .path("FILE"), help: "long")
        let wrapped = UsageLines.render(command: "imu-test", templates: ["--json --\(long.long)"], options: [long] + testSpec.options)
        #expect(wrapped.count > 1 && wrapped.allSatisfy { $0.count <= UsageLines.width })
        #expect(wrapped[1] == "         --\(long.long) FILE", "\(wrapped)")
    }

    /// `--rate 50 --rate 50.0` was refused as "given twice ('50' and '50.0')": one value. Two
    /// different numbers are still refused naming both; a file option compares its text.
    @Test func oneNumberGivenTwiceInTwoSpellingsIsOneValue() throws {
        let same = try ArgumentParser.parse(["--rate", "50", "--rate=50.0", "--rate", "5e1"], spec: testSpec)
        #expect(try same.double("rate", in: 1...1000) == 50)
        let different = #expect(throws: UsageError.self) { try ArgumentParser.parse(["--rate", "50", "--rate", "50.5"], spec: testSpec) }
        #expect(different?.message == "--rate given twice ('50' and '50.5'); give it once")
        let files = #expect(throws: UsageError.self) { try ArgumentParser.parse(["-r", "1", "-r", "1.0"], spec: testSpec) }
        #expect(files?.message == "--replay given twice ('1' and '1.0'); give it once")
    }

    /// The kind, not the value's name in help, says how repeats compare: `--bus 0x1 --bus 1` was
    /// refused as "given twice" because only N, HZ, M, S and PX were taken for numbers, and those
    /// as decimals. A path compares lexically; text as text.
    @Test func repeatsCompareAsTheOptionsKind() throws {
        #expect(try ArgumentParser.parse(["--bus", "0x1", "--bus", "1", "--bus=0X01"], spec: testSpec).integer("bus", in: 0...9) == 1)
        let buses = #expect(throws: UsageError.self) { try ArgumentParser.parse(["--bus", "0x10", "--bus", "10"], spec: testSpec) }
        #expect(buses?.message == "--bus given twice ('0x10' and '10'); give it once")
        #expect(try ArgumentParser.parse(["--from", "90", "--from", "1:30", "--from", "0:01:30.0"], spec: testSpec).string("from") != nil)
        #expect(throws: UsageError.self) { try ArgumentParser.parse(["--from", "90", "--from", "1:31"], spec: testSpec) }
        #expect(try ArgumentParser.parse(["-r", "./x.csv", "-r", "x.csv", "-r", ".//x.csv"], spec: testSpec).string("replay") != nil)
        #expect(try ArgumentParser.parse(["-r", "/tmp/x.csv", "-r", "/tmp//./x.csv"], spec: testSpec).string("replay") != nil)
        #expect(throws: UsageError.self) { try ArgumentParser.parse(["-r", "-", "-r", "./-"], spec: testSpec) }
        #expect(throws: UsageError.self) { try ArgumentParser.parse(["-r", "/x.csv", "-r", "x.csv"], spec: testSpec) }
        // Text: a source spec's spelling is its meaning; "0x1" and "1" are two addresses' text.
        #expect(throws: UsageError.self) { try ArgumentParser.parse(["--address", "0x1", "--address", "1"], spec: testSpec) }
    }

    @Test func helpShowsTheValuesName() {
        #expect(testSpec.helpText.contains("--bus N"))
        #expect(testSpec.helpText.contains("-r, --replay FILE"))
    }

    @Test func missingValue() {
        let error = #expect(throws: UsageError.self) { try ArgumentParser.parse(["--replay"], spec: testSpec) }
        #expect(error?.message.contains("needs a value") == true)
    }

    @Test func flagWithValueAndStrayPositional() {
        #expect(throws: UsageError.self) { try ArgumentParser.parse(["--json=yes"], spec: testSpec) }
        #expect(throws: UsageError.self) { try ArgumentParser.parse(["stray"], spec: testSpec) }
    }

    @Test func numbersAreRangeChecked() throws {
        let a = try ArgumentParser.parse(["--rate", "-5"], spec: testSpec)
        #expect(throws: UsageError.self) { try a.double("rate", in: 1...1000) }
        let b = try ArgumentParser.parse(["--rate", "fast"], spec: testSpec)
        #expect(throws: UsageError.self) { try b.double("rate", in: 1...1000) }
    }

    /// `--rate 1e999` said "must be between 1.0 and 8000.0" and "fix: see 'imu-steps --help'":
    /// whole bounds now read as written, and the fix names the range with the option.
    @Test func anOutOfRangeNumberNamesTheRangeAsWritten() throws {
        let a = try ArgumentParser.parse(["--rate", "1e999"], spec: testSpec)
        let rate = #expect(throws: UsageError.self) { try a.double("rate", in: 1...8000) }
        #expect(rate?.message == "--rate must be between 1 and 8000, got 1e999")
        #expect(rate?.fix == "give --rate a number from 1 to 8000: --rate HZ (rate)")
        let fraction = try ArgumentParser.parse(["--rate", "0"], spec: testSpec)
        let low = #expect(throws: UsageError.self) { try fraction.double("rate", in: 0.01...1000) }
        #expect(low?.message == "--rate must be between 0.01 and 1000, got 0")
    }

    /// A number too large to hold (1e400 overflows a Double, 20 digits an Int) is out of range:
    /// it was "--rate needs a number, got '1e400'" and "--width needs a whole number".
    @Test func aNumberTooLargeToHoldIsOutOfRange() throws {
        let a = try ArgumentParser.parse(["--rate", "1e400", "--address", "99999999999999999999"], spec: testSpec)
        let rate = #expect(throws: UsageError.self) { try a.double("rate", in: 1...1000) }
        #expect(rate?.message == "--rate must be between 1 and 1000, got 1e400")
        let address = #expect(throws: UsageError.self) { try a.integer("address", in: 0x03...0x77) }
        #expect(address?.message == "--address must be between 3 and 119, got 99999999999999999999")
        let nan = try ArgumentParser.parse(["--rate", "nan"], spec: testSpec)
        #expect { try nan.double("rate", in: 1...1000) } throws: { ($0 as? UsageError)?.message == "--rate needs a number from 1 to 1000, got 'nan'" }
    }

    @Test func hexAddresses() throws {
        let a = try ArgumentParser.parse(["--address", "0x68"], spec: testSpec)
        #expect(try a.integer("address", in: 0x03...0x77) == 0x68)
        let b = try ArgumentParser.parse(["--address", "0x99"], spec: testSpec)
        #expect(throws: UsageError.self) { try b.integer("address", in: 0x03...0x77) }
    }

    @Test func helpListsOptionsExamplesAndExitCodes() throws {
        let a = try ArgumentParser.parse(["-h"], spec: testSpec)
        #expect(a.wantsHelp)
        let text = testSpec.helpText
        #expect(text.contains("--replay FILE"))
        #expect(text.contains("imu-test --json"))
        #expect(text.contains("2 usage error"))
    }

    @Test func exclusiveOptions() throws {
        let a = try ArgumentParser.parse(["--json", "--replay", "f"], spec: testSpec)
        #expect(throws: UsageError.self) { try a.exclusive(["json", "replay"]) }
        try a.exclusive(["json", "rate"])
    }
}

@Suite struct JSONLineTests {
    @Test func keysInOrderAndEscaping() {
        var line = JSONLine(type: "step")
        line.add("t", 12.84)
        line.add("name", "a\"b\\c\n")
        line.add("n", 3)
        line.add("missing", nil as Double?)
        line.add("ok", true)
        #expect(line.text == #"{"type":"step","t":12.84,"name":"a\"b\\c\n","n":3,"missing":null,"ok":true}"#)
    }

    @Test func numbersTrimAndNeverPrintNaN() {
        #expect(JSONLine.number(1.5, decimals: 4) == "1.5")
        #expect(JSONLine.number(-0.00001, decimals: 4) == "0")
        #expect(JSONLine.number(2, decimals: 3) == "2")
        #expect(JSONLine.number(.nan, decimals: 3) == "null")
        #expect(JSONLine.number(-12.345678, decimals: 3) == "-12.346")
    }
}

/// The bad-input audit: values that name nothing, and options given twice.
@Suite struct ArgumentParserBadInputTests {
    /// `--replay ""` (an unset variable) reached the reader as ": cannot open recording".
    @Test func anEmptyValueIsAUsageError() {
        for args in [["--replay", ""], ["--replay="], ["-r", ""]] {
            let error = #expect(throws: UsageError.self) { try ArgumentParser.parse(args, spec: testSpec) }
            #expect(error?.message == "--replay needs a value (FILE), got an empty one", "\(args)")
        }
    }

    /// `--rate 50 --rate 100` kept the last silently; the same value twice is harmless.
    @Test func anOptionGivenTwiceWithDifferentValuesIsAUsageError() throws {
        let error = #expect(throws: UsageError.self) { try ArgumentParser.parse(["--rate", "50", "--rate=100"], spec: testSpec) }
        #expect(error?.message == "--rate given twice ('50' and '100'); give it once")
        #expect(try ArgumentParser.parse(["--rate", "50", "--rate", "50", "-j", "-j"], spec: testSpec).string("rate") == "50")
    }
}
