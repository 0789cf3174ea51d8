# Turns a transpose kernel (kernels/transpose/*.comp) into its variant
# whose matrices and repetitions are literals, not the uniform buffer's:
# the buffer stays bound and unread; the repetition loop stays rolled.
s/^  uint num_matrices;.*$/  uint unread_num_matrices;/
s/^  uint repetitions;.*$/  uint unread_repetitions;/
s/^void main() {$/#extension GL_EXT_control_flow_attributes : enable\nconst uint num_matrices = @MATRICES@u;\nconst uint repetitions = 3u;\nvoid main() {/
s/^  for (uint rep = 0u; rep < repetitions; ++rep) {$/  [[dont_unroll]] for (uint rep = 0u; rep < repetitions; ++rep) {/
