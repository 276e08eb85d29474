//! Fft's four transforms: a module of its own so that the op (`fft`) and its
//! gradient rule (`fft_grad`) both read it without importing each other.

#[derive(Clone, Copy, PartialEq, Debug)]
pub(crate) enum FftType {
    Fft,
    Ifft,
    Rfft,
    Irfft,
}
