// IP address parsing is shared with the allowlist parser in @boxagnts/api.
export {
  formatIpv4,
  type IpAddress,
  type IpRange,
  ipRangeContains as rangeContains,
  parseIpAddress as parseIp,
  parseIpRange,
  parseIpRangeOrThrow as ipRange,
} from '@boxagnts/api';
