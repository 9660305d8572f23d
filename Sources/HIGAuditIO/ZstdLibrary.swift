import CZstd

/// The libzstd this binary is linked against; conformance expectations depend on its version.
public enum ZstdLibrary {
    /// `ZSTD_versionNumber()`: major × 10000 + minor × 100 + patch (1.5.4 is 10504).
    public static var versionNumber: Int { Int(ZSTD_versionNumber()) }

    public static var versionString: String { String(cString: ZSTD_versionString()) }
}
