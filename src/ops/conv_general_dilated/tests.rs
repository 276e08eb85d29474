//! Fast path against the reference loop (in f64), checker messages.
