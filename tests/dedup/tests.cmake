# Dedup passes (seed 004) over the real corpus: neuron_all_gather_duplicate_remover
# with --verify-each --stats on every corpus/real module that has all-gathers;
# the merge counts are pinned (see the pass's report for why they are what
# they are). Skipped (exit 77), never passed, without ../shared/corpus.
add_test(NAME dedup.corpus_all_gather
  COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/corpus_all_gather.sh $<TARGET_FILE:hilo-opt> ${HILO_CORPUS}/real
    neuron_all_gather_duplicate_remover
    neuron_03_torchxla_spmd_fsdp_param_allgather.hlo:0:equiv
    neuron_04_tnx_llama_seqshard_allgather_concat_slice_rmsnorm.hlo:0:equiv
    neuron_02_nxd_llama2_tp8_pp4_allgather_allreduce.hlo:0
    graphhelper_neuron_llama2_dp1_tp1_pp1.hlo:0
    hlo_llama31_70b_fp8_32x8.hlo:0
    hlo_llama31_8b_bf16_1x8.hlo:0
    hlo_mixtral_8x7b_bf16_2x8.hlo:256)
set_tests_properties(dedup.corpus_all_gather PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 900)
# No corpus module has an AwsNeuronCustomNativeKernel: #76 finds no first
# kernel and must leave every module alone (and never fail).
add_test(NAME dedup.corpus_preprocess_kernel
  COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/corpus_all_gather.sh $<TARGET_FILE:hilo-opt> ${HILO_CORPUS}/real
    neuron-preprocess-kernel-duplicate-remover
    neuron_03_torchxla_spmd_fsdp_param_allgather.hlo:0
    neuron_04_tnx_llama_seqshard_allgather_concat_slice_rmsnorm.hlo:0
    neuron_05_tnx_gpt2_tp2_fullyunrolled_scatter_allreduce.hlo:0
    neuron_02_nxd_llama2_tp8_pp4_allgather_allreduce.hlo:0
    graphhelper_neuron_llama2_dp1_tp1_pp1.hlo:0)
set_tests_properties(dedup.corpus_preprocess_kernel PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 300)
