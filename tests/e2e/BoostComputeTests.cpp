// Boost.Compute through the loader: a real client whose algorithms run
// one-work-item kernels on a CPU device. count_if and accumulate returned 0
// and the initial value when a loop's result was stored to a
// work-item-independent address (compiler/WorkItemLoops.cpp).

#include "Common.h"

#include <boost/compute/algorithm/accumulate.hpp>
#include <boost/compute/algorithm/count_if.hpp>
#include <boost/compute/container/vector.hpp>
#include <boost/compute/core.hpp>
#include <boost/compute/lambda.hpp>

#include <catch2/catch.hpp>

#include <numeric>
#include <vector>

namespace compute = boost::compute;

TEST_CASE("Boost.Compute count_if and accumulate on clcpu", "[boost]") {
  compute::device Dev(clcpuDevice());
  compute::context Ctx(Dev);
  compute::command_queue Q(Ctx, Dev);
  using compute::lambda::_1;

  std::vector<float> In = {1, 2.5f, -1, 3, 5};
  compute::vector<float> V(In.begin(), In.end(), Q);
  CHECK(compute::count_if(V.begin(), V.end(), _1 > 2.0f, Q) == 3);

  std::vector<int> Ints = {1, 2, 3, 4, 5, 6};
  compute::vector<int> VI(Ints.begin(), Ints.end(), Q);
  CHECK(compute::accumulate(VI.begin(), VI.end(), 0, Q) == 21);

  // Larger inputs take the algorithms' other kernels.
  std::vector<int> Many(100000);
  std::iota(Many.begin(), Many.end(), -5000);
  compute::vector<int> VM(Many.begin(), Many.end(), Q);
  long Want = std::accumulate(Many.begin(), Many.end(), 0L);
  CHECK(compute::accumulate(VM.begin(), VM.end(), 0L, Q) == Want);
  CHECK(compute::count_if(VM.begin(), VM.end(), _1 > 1000, Q) ==
        static_cast<size_t>(std::count_if(Many.begin(), Many.end(),
                                          [](int X) { return X > 1000; })));
}
