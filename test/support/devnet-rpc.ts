// A JSON-RPC call to a test devnet, for the node's own methods (hardhat_setBalance…) that viem's
// clients do not name.

export async function devnetRpc(url: string, method: string, params: unknown[]): Promise<unknown> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  return ((await res.json()) as { result: unknown }).result;
}

/** Give `address` exactly `wei` of the devnet's ETH. */
export const setDevnetBalance = (url: string, address: string, wei: bigint) =>
  devnetRpc(url, 'hardhat_setBalance', [address, `0x${wei.toString(16)}`]);
