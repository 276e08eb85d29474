// all_reduce, all_gather, collective_permute, reduce_scatter, all_to_all on
// one replica (`xlet run` of a module does not take --replicas yet), so each
// group is the one replica: the translation is checked and runs. By hand:
//   x = [1, 2]; all_reduce(x) = x; all_gather(x, 0) = x; permute 0->0 = x.
module @m attributes {mhlo.num_replicas = 1 : i32, mhlo.num_partitions = 1 : i32} {
  func.func public @main() -> tensor<2xf32> {
    %base = stablehlo.constant dense<[1.0, 2.0]> : tensor<2xf32>
    %id = stablehlo.replica_id : tensor<ui32>
    %idf = stablehlo.convert %id : (tensor<ui32>) -> tensor<f32>
    %ten = stablehlo.constant dense<10.0> : tensor<f32>
    %off = stablehlo.multiply %idf, %ten : tensor<f32>
    %offb = stablehlo.broadcast_in_dim %off, dims = [] : (tensor<f32>) -> tensor<2xf32>
    %x = stablehlo.add %base, %offb : tensor<2xf32>
    %s = "stablehlo.all_reduce"(%x) <{replica_groups = dense<[[0]]> : tensor<1x1xi64>}> ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %0 = stablehlo.add %a, %b : tensor<f32>
      stablehlo.return %0 : tensor<f32>
    }) : (tensor<2xf32>) -> tensor<2xf32>
    %g = "stablehlo.all_gather"(%x) <{all_gather_dim = 0 : i64, replica_groups = dense<[[0]]> : tensor<1x1xi64>}> : (tensor<2xf32>) -> tensor<2xf32>
    %gs = stablehlo.reduce(%g init: %ten) applies stablehlo.add across dimensions = [0] : (tensor<2xf32>, tensor<f32>) -> tensor<f32>
    %p = "stablehlo.collective_permute"(%x) <{source_target_pairs = dense<[[0, 0]]> : tensor<1x2xi64>}> : (tensor<2xf32>) -> tensor<2xf32>
    %ps = stablehlo.add %p, %x : tensor<2xf32>
    %rs = "stablehlo.reduce_scatter"(%x) <{scatter_dimension = 0 : i64, replica_groups = dense<[[0]]> : tensor<1x1xi64>}> ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %0 = stablehlo.maximum %a, %b : tensor<f32>
      stablehlo.return %0 : tensor<f32>
    }) : (tensor<2xf32>) -> tensor<2xf32>
    %aa = "stablehlo.all_to_all"(%x) <{split_dimension = 0 : i64, concat_dimension = 0 : i64, split_count = 1 : i64, replica_groups = dense<[[0]]> : tensor<1x1xi64>}> : (tensor<2xf32>) -> tensor<2xf32>
    check.expect_almost_eq_const %rs, dense<[1.0, 2.0]> : tensor<2xf32>
    check.expect_almost_eq_const %aa, dense<[1.0, 2.0]> : tensor<2xf32>
    check.expect_almost_eq_const %s, dense<[1.0, 2.0]> : tensor<2xf32>
    check.expect_almost_eq_const %gs, dense<13.0> : tensor<f32>
    check.expect_almost_eq_const %ps, dense<[2.0, 4.0]> : tensor<2xf32>
    return %s : tensor<2xf32>
  }
}
