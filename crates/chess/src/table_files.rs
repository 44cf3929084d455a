//! How Syzygy table files are read: small files are loaded into memory when first opened,
//! larger ones are read with positioned reads. A probe then costs no system call for the
//! tables that fit (every 3-4-piece table, most 5-piece ones), without the `unsafe` and
//! the crash-on-I/O-error (`SIGBUS`) of memory maps.

use std::io;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

use shakmaty_syzygy::filesystem::{Filesystem, OsFilesystem, RandomAccessFile, ReadHint};

/// Files up to this size are loaded whole.
pub const MAX_LOADED_FILE_BYTES: u64 = 64 << 20;
/// The most memory all loaded files of one table set may take.
pub const LOADED_BUDGET_BYTES: u64 = 1 << 30;

/// A [`Filesystem`] that keeps small table files in memory.
#[derive(Default)]
pub struct TableFiles {
    os: OsFilesystem,
    /// Bytes loaded so far (against [`LOADED_BUDGET_BYTES`]).
    loaded: AtomicU64,
}

impl TableFiles {
    pub fn new() -> TableFiles {
        TableFiles::default()
    }

    /// Bytes of table files held in memory.
    #[cfg(test)]
    pub fn loaded_bytes(&self) -> u64 {
        self.loaded.load(Ordering::Relaxed)
    }

    /// Reserves `bytes` of the budget; false when they do not fit.
    fn reserve(&self, bytes: u64) -> bool {
        self.loaded
            .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |used| {
                (used + bytes <= LOADED_BUDGET_BYTES).then_some(used + bytes)
            })
            .is_ok()
    }
}

impl Filesystem for TableFiles {
    fn regular_file_size(&self, path: &Path) -> io::Result<u64> {
        self.os.regular_file_size(path)
    }

    fn read_dir(&self, path: &Path) -> io::Result<Vec<PathBuf>> {
        self.os.read_dir(path)
    }

    fn open(&self, path: &Path) -> io::Result<Box<dyn RandomAccessFile>> {
        let size = self.os.regular_file_size(path)?;
        if size <= MAX_LOADED_FILE_BYTES && self.reserve(size) {
            match std::fs::read(path) {
                Ok(bytes) => return Ok(Box::new(LoadedFile { bytes })),
                Err(e) => {
                    self.loaded.fetch_sub(size, Ordering::Relaxed);
                    return Err(e);
                }
            }
        }
        self.os.open(path)
    }
}

/// A table file held in memory.
struct LoadedFile {
    bytes: Vec<u8>,
}

impl RandomAccessFile for LoadedFile {
    fn read_at(&self, buf: &mut [u8], offset: u64, _hint: ReadHint) -> io::Result<usize> {
        let start = usize::try_from(offset)
            .unwrap_or(usize::MAX)
            .min(self.bytes.len());
        let available = &self.bytes[start..];
        let n = buf.len().min(available.len());
        buf[..n].copy_from_slice(&available[..n]);
        Ok(n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn loaded_files_read_like_files() {
        let path = std::env::temp_dir().join(format!("horizon-table-files-{}", std::process::id()));
        let contents: Vec<u8> = (0..1000u32).map(|i| (i * 7 % 251) as u8).collect();
        std::fs::write(&path, &contents).expect("scratch file");
        let files = TableFiles::new();
        let file = files.open(&path).expect("opens");
        assert_eq!(files.loaded_bytes(), 1000);
        let mut buf = [0u8; 16];
        file.read_exact_at(&mut buf, 990 - 6, ReadHint::Data)
            .expect("inside the file");
        assert_eq!(&buf[..], &contents[984..1000]);
        assert_eq!(file.read_at(&mut buf, 995, ReadHint::Data).ok(), Some(5));
        assert_eq!(file.read_at(&mut buf, 5000, ReadHint::Data).ok(), Some(0));
        assert!(file.read_exact_at(&mut buf, 995, ReadHint::Data).is_err());
        assert_eq!(
            file.read_u16_le_at(2, ReadHint::Header).ok(),
            Some(u16::from_le_bytes([contents[2], contents[3]]))
        );
        let _ = std::fs::remove_file(&path);
    }
}
