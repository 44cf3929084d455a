//! Zeroed arrays in 2 MiB pages where the system gives them, for the transposition table.
//!
//! Every table probe lands on a random page. With 4 KiB pages, a table of tens of MiB needs
//! far more address translations than the processor caches, so a probe often waits for a
//! page walk on top of the memory access. The array is aligned to 2 MiB and, on Linux,
//! marked with `madvise(MADV_HUGEPAGE)` before it is touched, so transparent huge pages back
//! it when the kernel allows them (`enabled` set to `always` or `madvise`); elsewhere, or when
//! the kernel refuses, it is ordinary memory and nothing else changes. (The large-page
//! allocation of Stockfish's `aligned_large_pages_alloc` is the same idea.)

use std::alloc::{self, Layout};
use std::ops::Deref;
use std::ptr::NonNull;

/// The alignment, and the size from which it is used: one x86-64 huge page.
const HUGE_PAGE: usize = 2 << 20;

/// The least alignment of any array: one cache line, so that a group of slots the size of a
/// line sits in exactly one.
pub(crate) const CACHE_LINE: usize = 64;

/// Types whose all-zero bit pattern is a valid value.
///
/// # Safety
/// Implement only for types for which zeroed memory is a valid, initialised value.
pub(crate) unsafe trait Zeroable: Sized {}

/// An owned, zero-initialised `[T]` of a fixed length, 2 MiB aligned when it is at least
/// 2 MiB long and cache-line aligned otherwise.
pub(crate) struct LargeArray<T: Zeroable> {
    ptr: NonNull<T>,
    len: usize,
    /// The allocation's layout (`None` for an empty array, which allocates nothing).
    layout: Option<Layout>,
}

// SAFETY: `LargeArray` owns its elements like a `Box<[T]>` does.
unsafe impl<T: Zeroable + Send> Send for LargeArray<T> {}
// SAFETY: shared access only hands out `&[T]`.
unsafe impl<T: Zeroable + Sync> Sync for LargeArray<T> {}

impl<T: Zeroable> LargeArray<T> {
    /// `len` zeroed elements, or `None` when the allocator refuses (or the size overflows).
    pub(crate) fn zeroed(len: usize) -> Option<Self> {
        let bytes = len.checked_mul(size_of::<T>())?;
        if bytes == 0 {
            return Some(LargeArray {
                ptr: NonNull::dangling(),
                len,
                layout: None,
            });
        }
        let align = if bytes >= HUGE_PAGE {
            HUGE_PAGE.max(align_of::<T>())
        } else {
            CACHE_LINE.max(align_of::<T>())
        };
        let layout = Layout::from_size_align(bytes, align).ok()?;
        // SAFETY: `layout` has a non-zero size.
        let raw = unsafe { alloc::alloc(layout) };
        let ptr = NonNull::new(raw.cast::<T>())?;
        if bytes >= HUGE_PAGE {
            advise_huge_pages(raw, bytes);
        }
        // SAFETY: `raw` is valid for `bytes` bytes of writes; zeroes are a valid `T`
        // (`Zeroable`), so afterwards all `len` elements are initialised.
        unsafe { raw.write_bytes(0, bytes) };
        Some(LargeArray {
            ptr,
            len,
            layout: Some(layout),
        })
    }
}

impl<T: Zeroable> Deref for LargeArray<T> {
    type Target = [T];

    #[inline]
    fn deref(&self) -> &[T] {
        // SAFETY: `ptr` points to `len` initialised elements (or is dangling with `len`
        // elements of a zero-sized total, which a slice allows), owned by `self`.
        unsafe { std::slice::from_raw_parts(self.ptr.as_ptr(), self.len) }
    }
}

impl<T: Zeroable> Drop for LargeArray<T> {
    fn drop(&mut self) {
        if let Some(layout) = self.layout {
            // SAFETY: the elements are initialised and dropped once, here; then the memory
            // is freed with the layout it was allocated with.
            unsafe {
                std::ptr::drop_in_place(std::ptr::slice_from_raw_parts_mut(
                    self.ptr.as_ptr(),
                    self.len,
                ));
                alloc::dealloc(self.ptr.as_ptr().cast::<u8>(), layout);
            }
        }
    }
}

/// Asks Linux to back `[ptr, ptr + bytes)` with transparent huge pages (a hint: failure
/// leaves ordinary pages).
#[cfg(target_os = "linux")]
fn advise_huge_pages(ptr: *mut u8, bytes: usize) {
    // SAFETY: the range is one live allocation of ours; MADV_HUGEPAGE changes how the kernel
    // backs it, never its contents or validity.
    unsafe {
        libc::madvise(ptr.cast::<libc::c_void>(), bytes, libc::MADV_HUGEPAGE);
    }
}

#[cfg(not(target_os = "linux"))]
fn advise_huge_pages(_ptr: *mut u8, _bytes: usize) {}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

    #[repr(C, align(32))]
    struct Slot([AtomicU64; 4]);
    // SAFETY: atomics of zero are valid.
    unsafe impl Zeroable for Slot {}

    #[test]
    fn small_and_large_arrays_are_zeroed_writable_and_aligned() {
        for len in [
            0,
            1,
            4,
            (HUGE_PAGE / 32) - 1,
            HUGE_PAGE / 32,
            3 * HUGE_PAGE / 32 + 5,
        ] {
            let array = LargeArray::<Slot>::zeroed(len).expect("allocates");
            assert_eq!(array.len(), len);
            assert!(
                array
                    .iter()
                    .all(|s| s.0.iter().all(|w| w.load(Relaxed) == 0))
            );
            let addr = array.as_ptr() as usize;
            // An empty array allocates nothing: its dangling pointer has only `T`'s alignment.
            assert_eq!(addr % if len == 0 { 32 } else { CACHE_LINE }, 0);
            if len * 32 >= HUGE_PAGE {
                assert_eq!(addr % HUGE_PAGE, 0, "len {len}");
            }
            for (i, slot) in array.iter().enumerate() {
                slot.0[i % 4].store(i as u64 + 1, Relaxed);
            }
            for (i, slot) in array.iter().enumerate() {
                assert_eq!(slot.0[i % 4].load(Relaxed), i as u64 + 1);
            }
        }
    }

    #[test]
    fn an_impossible_size_is_refused() {
        assert!(LargeArray::<Slot>::zeroed(usize::MAX / 16).is_none());
        assert!(LargeArray::<Slot>::zeroed(1 << 58).is_none());
    }
}
