//! The op table: every family's ops (crates/ops-*) assembled into one
//! `OpTable` the session hands to the checker (ARCHITECTURE.md). The op modules
//! are re-exported under their own names, so `xlet_ops::pad` is the Pad module
//! wherever it lives.

pub use xlet_ops_collective::{
    all_gather, all_reduce, all_to_all, collective, collective_permute, cross_replica_sum, recv,
    reduce_scatter, replica_id, send,
};
pub use xlet_ops_common::{common, for_class, index_dims, reduction, window_grad};
pub use xlet_ops_control::{
    call, composite_call, conditional, custom_call, grad, infeed, load_npy, outfeed, save_npy, vjp,
    while_loop,
};
pub use xlet_ops_convert::{
    bitcast_convert_type, convert_element_type, iota, map, reduce_precision, rng_bit_generator,
    rng_normal, rng_uniform,
};
pub use xlet_ops_elementwise::{binary, clamp, compare, complex, select, unary};
pub use xlet_ops_indexing::{gather, scatter};
pub use xlet_ops_linalg::{
    batch_norm_args, batch_norm_grad, batch_norm_inference, batch_norm_training, cholesky, conv,
    conv_general_dilated, conv_with_general_padding, dot, dot_general, fft, triangular_solve,
};
pub use xlet_ops_reduce::{reduce, reduce_window, select_and_scatter};
pub use xlet_ops_shape::{
    broadcast, broadcast_in_dim, collapse, concatenate, dynamic_slice, dynamic_update_slice,
    get_dimension_size, get_tuple_element, optimization_barrier, pad, reshape, rev, slice,
    transpose, tuple,
};
pub use xlet_ops_sort::{sort, top_k};

pub mod registry;
