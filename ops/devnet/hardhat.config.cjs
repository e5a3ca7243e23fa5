// Local devnet: chain id 8453 so CAIP-2 "eip155:8453" and the Base USDC EIP-712 domain line up.
module.exports = { networks: { hardhat: { chainId: 8453, mining: { auto: true } } } };
