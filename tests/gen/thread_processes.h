// The processes of a spread job as threads of one test program (gen/partition.h), for
// the parts of a job that talk through all_gather alone (plans, checkpoints); the other
// collectives fail. tests/mpi/ runs the whole job through mpirun.
#pragma once

#include <barrier>
#include <functional>
#include <string>
#include <thread>
#include <vector>

#include "gen/partition.h"

namespace feerie::test {

class ThreadProcesses {
 public:
  explicit ThreadProcesses(int ranks) : ranks_(ranks), meeting_(ranks), words_(std::size_t(ranks)) {}

  class Process final : public Partition {
   public:
    Process(ThreadProcesses& all, int rank) : all_(all), rank_(rank) {}
    int rank() const override { return rank_; }
    int ranks() const override { return all_.ranks_; }
    Expected<std::vector<std::string>> all_gather(const std::string& mine) override {
      all_.words_[std::size_t(rank_)] = mine;
      all_.meeting_.arrive_and_wait();
      std::vector<std::string> all = all_.words_;
      all_.meeting_.arrive_and_wait();  // everyone has read before the next gather writes
      return all;
    }
    Expected<std::vector<std::uint64_t>> exchange(std::vector<std::uint64_t>,
                                                  const std::vector<std::uint64_t>&) override {
      return error(ErrorKind::Internal, "exchange: not a collective of these test processes");
    }
    Status max(std::vector<std::int64_t>&) override {
      return error(ErrorKind::Internal, "max: not a collective of these test processes");
    }
    Status sum(std::vector<std::uint64_t>&) override {
      return error(ErrorKind::Internal, "sum: not a collective of these test processes");
    }

   private:
    ThreadProcesses& all_;
    int rank_;
  };

  // Runs `work(process)` in every process at once.
  void run(const std::function<void(Process&)>& work) {
    std::vector<std::thread> threads;
    for (int r = 0; r < ranks_; ++r)
      threads.emplace_back([this, r, &work] {
        Process process(*this, r);
        work(process);
      });
    for (std::thread& t : threads) t.join();
  }

 private:
  int ranks_;
  std::barrier<> meeting_;
  std::vector<std::string> words_;
};

}  // namespace feerie::test
