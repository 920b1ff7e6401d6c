// generate_helpmates (gen/help_generate.h): a job stopped on request between passes.
#include "gen/help_generate.h"

#include <gtest/gtest.h>

#include <filesystem>

#include "tests/gen/table_test_util.h"

namespace feerie {
namespace {

// A job cancelled inside its second component stops there with Interrupted, keeps the first
// component's finished tables and leaves no file of the second; the next run reuses the
// first and finishes. (Python's generate(stipulation='h#') saw Ctrl-C only when the job ended.)
TEST(HelpGenerate, ACancelledJobStopsAfterAPassAndKeepsTheTablesFinished) {
  for (StipulationKind kind : {StipulationKind::Helpmate, StipulationKind::Selfmate}) {
    const std::string dir = test::temporary_tables_dir("help-cancel-");
    std::filesystem::remove_all(dir);
    HelpGenerateOptions options;
    options.kind = kind;
    options.tables_dir = dir;
    options.threads = 1;
    int written = 0, polls_after_first = 0;
    options.on_table = [&](const GeneratedHelpTable&) { ++written; };
    // The poll before the second component answers no, the one after its first pass yes.
    options.cancelled = [&] { return written > 0 && ++polls_after_first == 2; };
    const Material kqvk = *Material::parse("KQvK");
    auto stopped = generate_helpmates({kqvk}, RuleSet::orthodox(), options);
    ASSERT_FALSE(stopped.ok());
    EXPECT_EQ(stopped.error().kind, ErrorKind::Interrupted) << stopped.error_message();
    EXPECT_NE(stopped.error_message().find("after 1 pass"), std::string::npos) << stopped.error_message();
    EXPECT_EQ(written, 1);
    std::size_t files = 0;
    for (const auto& f : std::filesystem::directory_iterator(std::filesystem::path(dir) / "orthodox")) {
      const std::string name = f.path().filename().string();
      EXPECT_TRUE(name.starts_with("KvK.") || name.starts_with(".")) << name;  // (lock files are hidden)
      files += name.starts_with("KvK.");
    }
    EXPECT_EQ(files, 2u);  // both colours mated

    options.cancelled = {};
    std::vector<bool> reused;
    options.on_table = [&](const GeneratedHelpTable& t) { reused.push_back(t.reused); };
    auto finished = generate_helpmates({kqvk}, RuleSet::orthodox(), options);
    ASSERT_TRUE(finished.ok()) << finished.error_message();
    EXPECT_EQ(reused, (std::vector<bool>{true, false}));
    std::filesystem::remove_all(dir);
  }
}

}  // namespace
}  // namespace feerie
