// Local devnet (src/devnet/devnet.ts): chain id 8453 so CAIP-2 "eip155:8453" and the Base USDC EIP-712
// domain line up. No `solidity` section is needed: nothing is ever compiled (prebuilt artifacts only).
// allowBlocksWithSameTimestamp keeps block time equal to wall-clock time even when many transactions
// are mined within one second (the x402 facilitator checks validBefore against Date.now()).
module.exports = {
  networks: {
    hardhat: { chainId: 8453, mining: { auto: true }, allowBlocksWithSameTimestamp: true },
  },
};
