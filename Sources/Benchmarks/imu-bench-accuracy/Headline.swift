/// A set's headline figure (on the part not tuned on): the line in its table, and the same text
/// as a `figure:` line, which `make bench` repeats in its summary beside the other benches'.
enum Headline {
    static func say(_ set: String, _ text: String) {
        print("HEADLINE " + text)
        print("figure: " + set + ", " + text)
    }
}
