/// Linux's limits on a path (limits.h: NAME_MAX 255 bytes for one file name, PATH_MAX 4096
/// bytes with the terminating NUL, so 4095 for the text), for the fixes of ENAMETOOLONG.
public enum PathLimits {
    /// "Linux takes at most 255 bytes in one file name and 4095 in a path", the end of a fix.
    public static let sentence = "Linux takes at most 255 bytes in one file name and 4095 in a path"
}
