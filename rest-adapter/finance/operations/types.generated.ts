// Written by `npm run compose` (bin/operation-types.ts) from schema/supergraph.graphql and rest-adapter/finance/operations/: do not edit.
/** Internal type. DO NOT USE DIRECTLY. */
type Exact<T extends { [key: string]: unknown }> = { [K in keyof T]: T[K] };
/** Internal type. DO NOT USE DIRECTLY. */
export type Incremental<T> = T | { [P in keyof T]?: P extends ' $fragmentName' | '__typename' ? T[P] : never };
export type AttachmentInput = {
  filename: string;
  /** image/png, image/jpeg or application/pdf */
  contentType: string;
  /** The bytes, base64 (at most 5 MiB) */
  content: string;
};

export type BankTransferInput = {
  /** A decimal string, e.g. "2500.00" */
  amount: string;
  currency: string;
  /** The destination bank's CBN code (3 or 6 digits) */
  bankCode: string;
  /** The 10-digit NUBAN */
  accountNumber: string;
  accountName?: string | null | undefined;
  narration?: string | null | undefined;
};

export type InvestmentOrderInput = {
  symbol: string;
  /** buy or sell */
  side: string;
  /** market or limit */
  type: string;
  /** Shares (decimal string); exclusive with notional. */
  qty?: string | null | undefined;
  /** An amount of the quote currency; exclusive with qty; market orders only. */
  notional?: string | null | undefined;
  limitPrice?: string | null | undefined;
  /** Unique per user; a repeat with the same body answers the same order. */
  clientOrderId?: string | null | undefined;
  /** A sell at another provider than the active one (a holding from before a switch); default: the provider that holds the shares. */
  provider?: string | null | undefined;
};

export type MobileMoneyInput = {
  amount: string;
  currency: string;
  /** The wallet's phone number in international form, e.g. "+233241234567" */
  phoneNumber: string;
};

export type NodeBrandingInput = {
  organisationName?: string | null | undefined;
  legalEntity?: string | null | undefined;
  /** Only "" (no logo): a logo is uploaded as a file (uploadNodeLogo). */
  logoUrl?: string | null | undefined;
  faviconUrl?: string | null | undefined;
  colorPrimary?: string | null | undefined;
  colorSecondary?: string | null | undefined;
  colorAccent?: string | null | undefined;
  supportEmail?: string | null | undefined;
  supportPhone?: string | null | undefined;
  termsUrl?: string | null | undefined;
  privacyUrl?: string | null | undefined;
};

export type NodeKycLevel =
  | 'NONE'
  | 'BASIC'
  | 'ENHANCED';

/** A change of the settings record: the fields given change. */
export type NodeSettingsInput = {
  shopEnabled?: boolean | null | undefined;
  investmentsEnabled?: boolean | null | undefined;
  virtualIbanEnabled?: boolean | null | undefined;
  africanAccountsEnabled?: boolean | null | undefined;
  mobileMoneyEnabled?: boolean | null | undefined;
  kycRequired?: boolean | null | undefined;
  disputesEnabled?: boolean | null | undefined;
  cryptoEnabled?: boolean | null | undefined;
  fiatRampsEnabled?: boolean | null | undefined;
  rewardsEnabled?: boolean | null | undefined;
  enforce2fa?: boolean | null | undefined;
  enhancedKycRequired?: boolean | null | undefined;
  maintenanceMode?: boolean | null | undefined;
  maintenanceMessage?: string | null | undefined;
  brokerageProvider?: string | null | undefined;
  fractionalSharesEnabled?: boolean | null | undefined;
};

export type ProductInput = {
  name: string;
  description?: string | null | undefined;
  /** Decimal string */
  price: string;
  currency: string;
  stock: number;
  active?: boolean | null | undefined;
};

export type RampInput = {
  /** on: fiat → crypto; off: crypto → fiat */
  direction: string;
  /** EUR, GBP, USD or NGN */
  fiatCurrency: string;
  /** BTC, ETH, USDC or USDT */
  asset: string;
  /** A decimal string: in the fiat currency (on) or in the asset (off) */
  amount: string;
};

export type AccountsQueryVariables = Exact<{ [key: string]: never; }>;


export type AccountsQuery = {
  balances: Array<{
    accountId: string,
    currency: string,
    available: {
      amount: string,
      currency: string
    },
    posted: {
      amount: string,
      currency: string
    },
    pending: {
      amount: string,
      currency: string
    }
  }>
};

export type AddShopCartItemMutationVariables = Exact<{
  productId: string | number;
  quantity: number;
  expectedPrice?: string | null | undefined;
}>;


export type AddShopCartItemMutation = {
  result: {
    items: Array<{
      id: string,
      name: string,
      quantity: number,
      stock: number,
      product_id: string,
      unit_price: {
        amount: string,
        currency: string
      },
      line_total: {
        amount: string,
        currency: string
      }
    }>,
    total: {
      amount: string,
      currency: string
    } | null
  }
};

export type AdminAccountsQueryVariables = Exact<{ [key: string]: never; }>;


export type AdminAccountsQuery = {
  nodeAdminUser: {
    username: string
  },
  nodeInfo: {
    name: string
  },
  ledgerAccounts: Array<{
    id: string,
    ownerType: string,
    ownerId: string,
    currency: string,
    code: string,
    createdAt: string,
    debitsPending: {
      amount: string
    },
    debitsPosted: {
      amount: string
    },
    creditsPending: {
      amount: string
    },
    creditsPosted: {
      amount: string
    }
  }>
};

export type AdminActivateLicenceMutationVariables = Exact<{
  licenceKey: string;
  registryUrl?: string | null | undefined;
}>;


export type AdminActivateLicenceMutation = {
  activateNodeLicence: {
    status: string
  }
};

export type AdminActivityQueryVariables = Exact<{ [key: string]: never; }>;


export type AdminActivityQuery = {
  nodeAdminUser: {
    username: string
  },
  nodeInfo: {
    name: string
  },
  nodeActivity: Array<{
    id: string,
    at: string,
    actor: string,
    action: string,
    detail: string
  }>
};

export type AdminAdjustmentsQueryVariables = Exact<{ [key: string]: never; }>;


export type AdminAdjustmentsQuery = {
  nodeAdminUser: {
    username: string
  },
  nodeInfo: {
    name: string
  },
  ledgerAdjustments: Array<{
    id: string,
    userId: string,
    username: string,
    direction: string,
    reason: string,
    status: string,
    proposedBy: string,
    proposedAt: string,
    decidedBy: string | null,
    decidedAt: string | null,
    amount: {
      amount: string,
      currency: string
    }
  }>
};

export type AdminAppIndexQueryVariables = Exact<{ [key: string]: never; }>;


export type AdminAppIndexQuery = {
  nodeAdminUser: {
    username: string
  },
  nodeInfo: {
    name: string
  },
  nodeUserStats: {
    total: number
  },
  ledgerCounts: {
    accounts: number,
    transfers: number
  },
  nodeProviderCredentials: Array<{
    id: string
  }>
};

export type AdminApproveAdjustmentMutationVariables = Exact<{
  id: string | number;
}>;


export type AdminApproveAdjustmentMutation = {
  approveLedgerAdjustment: {
    id: string,
    status: string
  }
};

export type AdminApproveOperatorChangeMutationVariables = Exact<{
  id: string | number;
}>;


export type AdminApproveOperatorChangeMutation = {
  approveNodeOperatorChange: {
    id: string,
    status: string
  }
};

export type AdminAuditLogQueryVariables = Exact<{ [key: string]: never; }>;


export type AdminAuditLogQuery = {
  nodeAdminUser: {
    username: string
  },
  nodeInfo: {
    name: string
  },
  nodeAuditLog: Array<{
    id: string,
    at: string,
    actor: string,
    action: string,
    detail: string,
    user: {
      username: string
    } | null
  }>
};

export type AdminBankingEventsQueryVariables = Exact<{ [key: string]: never; }>;


export type AdminBankingEventsQuery = {
  nodeAdminUser: {
    username: string
  },
  adminBankingEvents: Array<{
    provider: string,
    eventId: string,
    type: string,
    outcome: string | null,
    receivedAt: string,
    processedAt: string | null
  }>
};

export type AdminBankingMovementsQueryVariables = Exact<{
  status?: string | null | undefined;
}>;


export type AdminBankingMovementsQuery = {
  nodeAdminUser: {
    username: string
  },
  adminBankingMovements: Array<{
    id: string,
    kind: string,
    status: string,
    provider: string,
    failureReason: string | null,
    ledgerTransferId: string,
    createdAt: string,
    updatedAt: string,
    amount: {
      amount: string,
      currency: string
    }
  }>
};

export type AdminBrandingQueryVariables = Exact<{ [key: string]: never; }>;


export type AdminBrandingQuery = {
  nodeAdminUser: {
    username: string
  },
  nodeInfo: {
    name: string,
    readOnly: boolean
  },
  nodeBranding: {
    organisationName: string,
    legalEntity: string,
    logoUrl: string,
    legacyLogoUrl: string,
    faviconUrl: string,
    colorPrimary: string,
    colorSecondary: string,
    colorAccent: string,
    supportEmail: string,
    supportPhone: string,
    termsUrl: string,
    privacyUrl: string,
    updatedAt: string,
    logo: {
      contentType: string,
      size: number,
      uploadedAt: string
    } | null
  },
  nodeUserStats: {
    total: number
  }
};

export type AdminCancelShopOrderMutationVariables = Exact<{
  id: string | number;
}>;


export type AdminCancelShopOrderMutation = {
  adminCancelShopOrder: {
    id: string,
    status: string
  }
};

export type AdminCardAuthorisationsQueryVariables = Exact<{ [key: string]: never; }>;


export type AdminCardAuthorisationsQuery = {
  nodeAdminUser: {
    username: string
  },
  nodeInfo: {
    name: string
  },
  adminCardAuthorisations: Array<{
    id: string,
    cardId: string,
    providerAuthorisationId: string,
    merchantName: string,
    merchantCategory: string,
    status: string,
    declineReason: string | null,
    createdAt: string,
    amount: {
      amount: string,
      currency: string
    },
    capturedAmount: {
      amount: string,
      currency: string
    } | null
  }>
};

export type AdminCardsQueryVariables = Exact<{ [key: string]: never; }>;


export type AdminCardsQuery = {
  nodeAdminUser: {
    username: string
  },
  nodeInfo: {
    name: string
  },
  adminCards: Array<{
    id: string,
    brand: string,
    last4: string,
    maskedNumber: string,
    expMonth: number,
    expYear: number,
    currency: string,
    status: string,
    createdAt: string,
    perAuthorisationLimit: {
      amount: string,
      currency: string
    } | null,
    dailyLimit: {
      amount: string,
      currency: string
    } | null
  }>
};

export type AdminCommerceProductsQueryVariables = Exact<{ [key: string]: never; }>;


export type AdminCommerceProductsQuery = {
  nodeAdminUser: {
    username: string
  },
  adminShopProducts: Array<{
    id: string,
    name: string,
    description: string,
    stock: number,
    active: boolean,
    imageContentType: string | null,
    createdAt: string,
    price: {
      amount: string,
      currency: string
    }
  }>
};

export type AdminCompleteTotpEnrolmentMutationVariables = Exact<{
  enrolmentToken: string;
  otp: string;
}>;


export type AdminCompleteTotpEnrolmentMutation = {
  completeAdminTotpEnrolment: {
    session: string | null,
    username: string,
    expiresAt: string | null
  }
};

export type AdminCreateInviteMutationVariables = Exact<{
  note?: string | null | undefined;
  expiresInDays?: number | null | undefined;
}>;


export type AdminCreateInviteMutation = {
  createNodeInvite: {
    code: string,
    invite: {
      id: string,
      hint: string,
      note: string,
      createdBy: string,
      createdAt: string,
      expiresAt: string | null,
      usedAt: string | null
    }
  }
};

export type AdminCreateShopProductMutationVariables = Exact<{
  input: ProductInput;
}>;


export type AdminCreateShopProductMutation = {
  createShopProduct: {
    id: string
  }
};

export type AdminCreateUserMutationVariables = Exact<{
  username: string;
  email: string;
  password: string;
  superuser: boolean;
  staff: boolean;
}>;


export type AdminCreateUserMutation = {
  createNodeUser: {
    id: string,
    username: string
  }
};

export type AdminCryptoAddressesQueryVariables = Exact<{ [key: string]: never; }>;


export type AdminCryptoAddressesQuery = {
  nodeAdminUser: {
    username: string
  },
  nodeInfo: {
    name: string
  },
  adminCryptoDepositAddresses: Array<{
    userId: string,
    id: string,
    asset: string,
    network: string,
    address: string,
    createdAt: string,
    user: {
      username: string
    }
  }>
};

export type AdminCryptoDepositsQueryVariables = Exact<{ [key: string]: never; }>;


export type AdminCryptoDepositsQuery = {
  nodeAdminUser: {
    username: string
  },
  nodeInfo: {
    name: string
  },
  adminCryptoDeposits: Array<{
    id: string,
    asset: string,
    address: string,
    txHash: string,
    status: string,
    createdAt: string,
    creditedAt: string | null,
    amount: {
      amount: string,
      currency: string
    }
  }>
};

export type AdminCryptoSwapsQueryVariables = Exact<{ [key: string]: never; }>;


export type AdminCryptoSwapsQuery = {
  nodeAdminUser: {
    username: string
  },
  nodeInfo: {
    name: string
  },
  adminCryptoSwaps: Array<{
    id: string,
    quoteId: string,
    rate: string,
    createdAt: string,
    fromAmount: {
      amount: string,
      currency: string
    },
    fee: {
      amount: string,
      currency: string
    },
    toAmount: {
      amount: string,
      currency: string
    }
  }>
};

export type AdminDashboardQueryVariables = Exact<{ [key: string]: never; }>;


export type AdminDashboardQuery = {
  nodeAdminUser: {
    username: string
  },
  nodeInfo: {
    name: string,
    version: string,
    hostname: string | null,
    readOnly: boolean,
    maintenance: boolean,
    licence: {
      status: string,
      valid: boolean,
      source: string | null,
      checks: Array<string>,
      expiresAt: string | null,
      claims: {
        licenceId: string,
        organisationName: string,
        plan: string,
        maxNodes: number,
        maintenanceUntil: string
      } | null
    },
    checks: Array<{
      id: string,
      level: string,
      message: string
    }> | null,
    deployment: {
      registryUrl: string | null,
      deploymentId: string | null,
      lastHeartbeatAt: string | null,
      lastHeartbeatStatus: string | null,
      heartbeatIntervalSeconds: number
    } | null
  },
  nodeSettings: {
    updatedBy: string | null,
    shopEnabled: boolean,
    investmentsEnabled: boolean,
    virtualIbanEnabled: boolean,
    africanAccountsEnabled: boolean,
    mobileMoneyEnabled: boolean,
    kycRequired: boolean,
    disputesEnabled: boolean,
    cryptoEnabled: boolean,
    fiatRampsEnabled: boolean,
    rewardsEnabled: boolean,
    enforce2fa: boolean,
    enhancedKycRequired: boolean,
    maintenanceMode: boolean,
    maintenanceMessage: string,
    brokerageProvider: string,
    fractionalSharesEnabled: boolean,
    updatedAt: string
  },
  nodeUserStats: {
    total: number,
    active: number,
    superusers: number,
    twoFactor: number
  },
  ledgerTotals: Array<{
    currency: string,
    accounts: number,
    total: {
      amount: string,
      currency: string
    }
  }>,
  ledgerCounts: {
    accounts: number,
    transfers: number
  },
  nodeActivity: Array<{
    at: string,
    actor: string,
    action: string,
    detail: string
  }>,
  nodeRecentSignIns: Array<{
    username: string,
    at: string
  }>,
  ledgerTransfers: Array<{
    id: string,
    code: string,
    kind: string,
    createdAt: string,
    amount: {
      amount: string,
      currency: string
    }
  }>
};

export type AdminDeleteProviderCredentialMutationVariables = Exact<{
  id: string | number;
}>;


export type AdminDeleteProviderCredentialMutation = {
  deleteProviderCredential: boolean
};

export type AdminDisputeQueryVariables = Exact<{
  id: string | number;
}>;


export type AdminDisputeQuery = {
  nodeAdminUser: {
    username: string
  },
  adminDispute: {
    id: string,
    userId: string,
    transactionId: string,
    reason: string,
    description: string,
    status: string,
    resolutionNote: string | null,
    reversalTransactionId: string | null,
    refundProposedBy: string | null,
    createdAt: string,
    user: {
      username: string
    },
    amount: {
      amount: string,
      currency: string
    },
    attachments: Array<{
      id: string,
      filename: string,
      contentType: string,
      size: number
    }>,
    messages: Array<{
      authorRole: string,
      author: string,
      body: string,
      createdAt: string
    }>,
    history: Array<{
      fromStatus: string | null,
      toStatus: string,
      actor: string,
      note: string | null,
      at: string,
      actorUser: {
        username: string
      } | null
    }>
  }
};

export type AdminDisputesQueryVariables = Exact<{
  status?: string | null | undefined;
}>;


export type AdminDisputesQuery = {
  nodeAdminUser: {
    username: string
  },
  adminDisputes: Array<{
    id: string,
    userId: string,
    transactionId: string,
    reason: string,
    status: string,
    createdAt: string,
    updatedAt: string,
    user: {
      username: string
    },
    amount: {
      amount: string,
      currency: string
    }
  }>
};

export type AdminFulfilShopOrderMutationVariables = Exact<{
  id: string | number;
}>;


export type AdminFulfilShopOrderMutation = {
  fulfilShopOrder: {
    id: string,
    status: string
  }
};

export type AdminGiftCardOrdersQueryVariables = Exact<{ [key: string]: never; }>;


export type AdminGiftCardOrdersQuery = {
  nodeAdminUser: {
    username: string
  },
  adminGiftCardOrders: Array<{
    id: string,
    userId: string,
    brandId: string,
    country: string,
    quantity: number,
    recipientEmail: string | null,
    fulfilment: string,
    createdAt: string,
    user: {
      username: string
    },
    denomination: {
      amount: string,
      currency: string
    }
  }>
};

export type AdminInstallLicenceMutationVariables = Exact<{
  token: string;
  publicKey: string;
}>;


export type AdminInstallLicenceMutation = {
  installNodeLicence: {
    status: string
  }
};

export type AdminInstrumentsQueryVariables = Exact<{
  provider?: string | null | undefined;
  active?: boolean | null | undefined;
  cursor?: string | null | undefined;
}>;


export type AdminInstrumentsQuery = {
  nodeAdminUser: {
    username: string
  },
  adminInstruments: {
    nextCursor: string | null,
    results: Array<{
      provider: string,
      symbol: string,
      name: string,
      assetClass: string,
      issuer: string | null,
      tradable: boolean,
      fractionable: boolean,
      active: boolean,
      quoteCurrency: string,
      lastPrice: string | null,
      lastPriceAt: string | null
    }>
  }
};

export type AdminInvestingRunsQueryVariables = Exact<{ [key: string]: never; }>;


export type AdminInvestingRunsQuery = {
  investingRegistryWarnings: Array<string>,
  nodeAdminUser: {
    username: string
  },
  investingRuns: Array<{
    id: string,
    kind: string,
    provider: string | null,
    trigger: string,
    startedAt: string,
    finishedAt: string | null,
    ok: number,
    failed: number,
    deactivated: number,
    error: string | null
  }>
};

export type AdminInvestmentOrdersQueryVariables = Exact<{
  status?: string | null | undefined;
  cursor?: string | null | undefined;
}>;


export type AdminInvestmentOrdersQuery = {
  nodeAdminUser: {
    username: string
  },
  investingTradeStream: {
    state: string,
    connectedAt: string | null,
    lastEventAt: string | null,
    lastError: string | null,
    reconnects: number,
    events: number
  },
  investmentOrderCounts: Array<{
    status: string,
    count: number
  }>,
  adminInvestmentOrders: {
    nextCursor: string | null,
    results: Array<{
      id: string,
      userId: string,
      provider: string,
      symbol: string,
      side: string,
      type: string,
      qty: string | null,
      notional: string | null,
      status: string,
      filledQty: string,
      filledAvgPrice: string | null,
      submittedAt: string,
      user: {
        username: string
      },
      reserved: {
        amount: string,
        currency: string
      }
    }>
  }
};

export type AdminKycVerificationsQueryVariables = Exact<{
  state?: string | null | undefined;
}>;


export type AdminKycVerificationsQuery = {
  nodeAdminUser: {
    username: string
  },
  kycVerifications: Array<{
    id: string,
    userId: string,
    firstName: string,
    lastName: string,
    level: string,
    state: string,
    provider: string,
    reason: string,
    submittedAt: string | null,
    expiresAt: string | null,
    updatedAt: string,
    user: {
      username: string
    },
    documents: Array<{
      id: string,
      kind: string,
      contentType: string,
      size: number
    }>
  }>
};

export type AdminLicenceQueryVariables = Exact<{ [key: string]: never; }>;


export type AdminLicenceQuery = {
  nodeAdminUser: {
    username: string
  },
  nodeInfo: {
    name: string,
    readOnly: boolean,
    licence: {
      status: string,
      valid: boolean,
      source: string | null,
      installedAt: string | null,
      checks: Array<string>,
      issuer: string | null,
      keyId: string | null,
      expiresAt: string | null,
      claims: {
        licenceId: string,
        organisationName: string,
        plan: string,
        maxNodes: number,
        maintenanceUntil: string,
        entitlements: Array<string>
      } | null
    },
    checks: Array<{
      id: string,
      level: string,
      message: string,
      hint: string | null
    }> | null,
    deployment: {
      registryUrl: string | null,
      deploymentId: string | null,
      lastHeartbeatAt: string | null,
      lastHeartbeatStatus: string | null,
      nextHeartbeatAt: string | null,
      heartbeatIntervalSeconds: number
    } | null
  },
  nodeUserStats: {
    total: number
  }
};

export type AdminLoginPageQueryVariables = Exact<{ [key: string]: never; }>;


export type AdminLoginPageQuery = {
  nodeInfo: {
    name: string,
    readOnly: boolean
  }
};

export type AdminOperatorChangesQueryVariables = Exact<{ [key: string]: never; }>;


export type AdminOperatorChangesQuery = {
  nodeAdminUser: {
    username: string
  },
  nodeInfo: {
    name: string
  },
  nodeOperatorChanges: Array<{
    id: string,
    userId: string,
    username: string,
    change: string,
    reason: string,
    status: string,
    proposedByName: string,
    proposedAt: string,
    decidedByName: string | null,
    decidedAt: string | null
  }>
};

export type AdminPendingTransfersQueryVariables = Exact<{ [key: string]: never; }>;


export type AdminPendingTransfersQuery = {
  nodeAdminUser: {
    username: string
  },
  ledgerOpenPending: Array<{
    id: string,
    debitAccountId: string,
    creditAccountId: string,
    code: string,
    kind: string,
    timeoutAt: string | null,
    createdAt: string,
    amount: {
      amount: string,
      currency: string
    }
  }>
};

export type AdminPostDisputeMessageMutationVariables = Exact<{
  id: string | number;
  body: string;
}>;


export type AdminPostDisputeMessageMutation = {
  adminPostDisputeMessage: {
    id: string
  }
};

export type AdminProposeAdjustmentMutationVariables = Exact<{
  user: string;
  currency: string;
  amount: string;
  direction: string;
  reason: string;
}>;


export type AdminProposeAdjustmentMutation = {
  proposeLedgerAdjustment: {
    id: string,
    status: string
  }
};

export type AdminProposeOperatorChangeMutationVariables = Exact<{
  user: string | number;
  change: string;
  reason?: string | null | undefined;
}>;


export type AdminProposeOperatorChangeMutation = {
  proposeNodeOperatorChange: {
    id: string,
    status: string
  }
};

export type AdminProviderCredentialsQueryVariables = Exact<{ [key: string]: never; }>;


export type AdminProviderCredentialsQuery = {
  nodeAdminUser: {
    username: string
  },
  nodeInfo: {
    name: string,
    readOnly: boolean
  },
  nodeProviderCredentials: Array<{
    id: string,
    provider: string,
    name: string,
    secretHint: string,
    updatedAt: string,
    updatedBy: string | null
  }>
};

export type AdminProviderEventsQueryVariables = Exact<{ [key: string]: never; }>;


export type AdminProviderEventsQuery = {
  nodeAdminUser: {
    username: string
  },
  providerEvents: Array<{
    id: string,
    provider: string,
    eventId: string,
    type: string,
    status: string,
    error: string | null,
    receivedAt: string,
    processedAt: string | null
  }>
};

export type AdminReconciliationQueryVariables = Exact<{ [key: string]: never; }>;


export type AdminReconciliationQuery = {
  nodeAdminUser: {
    username: string
  },
  ledgerReconciliation: Array<{
    currency: string,
    accounts: number,
    transfers: number,
    driftingAccounts: number,
    balanced: boolean,
    posted: {
      amount: string
    },
    pending: {
      amount: string
    },
    userHoldings: {
      amount: string
    }
  }>
};

export type AdminRejectAdjustmentMutationVariables = Exact<{
  id: string | number;
}>;


export type AdminRejectAdjustmentMutation = {
  rejectLedgerAdjustment: {
    id: string,
    status: string
  }
};

export type AdminRejectDisputeMutationVariables = Exact<{
  id: string | number;
  note: string;
}>;


export type AdminRejectDisputeMutation = {
  rejectDispute: {
    id: string,
    status: string
  }
};

export type AdminRejectOperatorChangeMutationVariables = Exact<{
  id: string | number;
}>;


export type AdminRejectOperatorChangeMutation = {
  rejectNodeOperatorChange: {
    id: string,
    status: string
  }
};

export type AdminResolveDisputeMutationVariables = Exact<{
  id: string | number;
  note: string;
}>;


export type AdminResolveDisputeMutation = {
  resolveDispute: {
    id: string,
    status: string,
    refundProposedBy: string | null
  }
};

export type AdminReviewDisputeMutationVariables = Exact<{
  id: string | number;
}>;


export type AdminReviewDisputeMutation = {
  reviewDispute: {
    id: string,
    status: string
  }
};

export type AdminReviewKycVerificationMutationVariables = Exact<{
  verificationId: string | number;
  decision: string;
  reason: string;
}>;


export type AdminReviewKycVerificationMutation = {
  reviewKycVerification: {
    id: string,
    state: string
  }
};

export type AdminRewardsQueryVariables = Exact<{ [key: string]: never; }>;


export type AdminRewardsQuery = {
  nodeAdminUser: {
    username: string
  },
  adminRewardEvents: Array<{
    id: string,
    userId: string,
    rule: string,
    points: string,
    reference: string,
    createdAt: string,
    user: {
      username: string
    }
  }>,
  adminReferrals: Array<{
    referredUserId: string,
    referrerUserId: string,
    createdAt: string,
    rewardedAt: string | null
  }>
};

export type AdminSaveProviderCredentialMutationVariables = Exact<{
  provider: string;
  name: string;
  secret: string;
}>;


export type AdminSaveProviderCredentialMutation = {
  saveProviderCredential: {
    id: string
  }
};

export type AdminSetShopProductImageMutationVariables = Exact<{
  id: string | number;
  contentType: string;
  content: string;
}>;


export type AdminSetShopProductImageMutation = {
  setShopProductImage: {
    id: string
  }
};

export type AdminSetSignupModeMutationVariables = Exact<{
  mode: string;
}>;


export type AdminSetSignupModeMutation = {
  setNodeSignupMode: string
};

export type AdminSetUserActiveMutationVariables = Exact<{
  user: string | number;
  active: boolean;
}>;


export type AdminSetUserActiveMutation = {
  setNodeUserActive: {
    id: string
  }
};

export type AdminSetUserKycLevelMutationVariables = Exact<{
  user: string | number;
  level: NodeKycLevel;
}>;


export type AdminSetUserKycLevelMutation = {
  setNodeUserKycLevel: {
    id: string
  }
};

export type AdminSettingsQueryVariables = Exact<{ [key: string]: never; }>;


export type AdminSettingsQuery = {
  nodeAdminUser: {
    username: string
  },
  nodeInfo: {
    name: string,
    readOnly: boolean
  },
  nodeSettings: {
    updatedBy: string | null,
    shopEnabled: boolean,
    investmentsEnabled: boolean,
    virtualIbanEnabled: boolean,
    africanAccountsEnabled: boolean,
    mobileMoneyEnabled: boolean,
    kycRequired: boolean,
    disputesEnabled: boolean,
    cryptoEnabled: boolean,
    fiatRampsEnabled: boolean,
    rewardsEnabled: boolean,
    enforce2fa: boolean,
    enhancedKycRequired: boolean,
    maintenanceMode: boolean,
    maintenanceMessage: string,
    brokerageProvider: string,
    fractionalSharesEnabled: boolean,
    updatedAt: string
  },
  nodeUserStats: {
    total: number
  }
};

export type AdminShopOrdersQueryVariables = Exact<{
  status?: string | null | undefined;
}>;


export type AdminShopOrdersQuery = {
  nodeAdminUser: {
    username: string
  },
  adminShopOrders: Array<{
    id: string,
    userId: string,
    status: string,
    createdAt: string,
    user: {
      username: string
    },
    total: {
      amount: string,
      currency: string
    },
    items: Array<{
      name: string,
      quantity: number
    }>,
    history: Array<{
      toStatus: string
    }>
  }>
};

export type AdminSignInMutationVariables = Exact<{
  username: string;
  password: string;
  otp?: string | null | undefined;
}>;


export type AdminSignInMutation = {
  startAdminSession: {
    session: string | null,
    username: string,
    expiresAt: string | null,
    enrolment: {
      secret: string,
      otpauthUri: string,
      qrCode: string,
      enrolmentToken: string,
      expiresIn: number
    } | null
  }
};

export type AdminSignOutMutationVariables = Exact<{
  session: string;
}>;


export type AdminSignOutMutation = {
  endAdminSession: boolean
};

export type AdminSignupQueryVariables = Exact<{ [key: string]: never; }>;


export type AdminSignupQuery = {
  nodeSignupMode: string,
  nodeAdminUser: {
    username: string
  },
  nodeInfo: {
    name: string
  },
  nodeInvites: Array<{
    id: string,
    hint: string,
    note: string,
    createdBy: string,
    createdAt: string,
    expiresAt: string | null,
    usedAt: string | null
  }>
};

export type AdminSimulateIncomingTransferMutationVariables = Exact<{
  accountId: string | number;
  amount: string;
  senderName?: string | null | undefined;
}>;


export type AdminSimulateIncomingTransferMutation = {
  adminSimulateIncomingTransfer: {
    id: string,
    kind: string,
    status: string,
    provider: string,
    counterparty: Record<string, unknown>,
    failureReason: string | null,
    createdAt: string,
    updatedAt: string,
    amount: {
      amount: string,
      currency: string
    },
    counterAmount: {
      amount: string,
      currency: string
    } | null
  }
};

export type AdminTransfersQueryVariables = Exact<{ [key: string]: never; }>;


export type AdminTransfersQuery = {
  nodeAdminUser: {
    username: string
  },
  nodeInfo: {
    name: string
  },
  ledgerTransfers: Array<{
    id: string,
    debitAccountId: string,
    creditAccountId: string,
    code: string,
    kind: string,
    pendingId: string | null,
    createdAt: string,
    amount: {
      amount: string,
      currency: string
    }
  }>
};

export type AdminUpdateBrandingMutationVariables = Exact<{
  input: NodeBrandingInput;
}>;


export type AdminUpdateBrandingMutation = {
  updateNodeBranding: {
    updatedAt: string
  }
};

export type AdminUpdateSettingsMutationVariables = Exact<{
  input: NodeSettingsInput;
}>;


export type AdminUpdateSettingsMutation = {
  updateNodeSettings: {
    updatedAt: string
  }
};

export type AdminUpdateShopProductMutationVariables = Exact<{
  id: string | number;
  input: ProductInput;
}>;


export type AdminUpdateShopProductMutation = {
  updateShopProduct: {
    id: string
  }
};

export type AdminUploadLogoMutationVariables = Exact<{
  uploadKey: string;
}>;


export type AdminUploadLogoMutation = {
  uploadNodeLogo: {
    logoUrl: string,
    logo: {
      contentType: string,
      size: number,
      sha256: string
    } | null
  }
};

export type AdminUserQueryVariables = Exact<{
  id: string | number;
}>;


export type AdminUserQuery = {
  nodeAdminUser: {
    username: string
  },
  nodeInfo: {
    name: string
  },
  nodeUserDetail: {
    id: string,
    username: string,
    email: string,
    emailVerified: boolean,
    phone: string | null,
    phoneVerified: boolean,
    kycLevel: NodeKycLevel,
    isSuperuser: boolean,
    isStaff: boolean,
    isActive: boolean,
    twoFactorEnabled: boolean,
    dateJoined: string,
    lastLogin: string | null
  }
};

export type AdminUserAddQueryVariables = Exact<{ [key: string]: never; }>;


export type AdminUserAddQuery = {
  nodeAdminUser: {
    username: string
  },
  nodeInfo: {
    name: string
  },
  nodeUserStats: {
    total: number
  }
};

export type AdminUsersQueryVariables = Exact<{ [key: string]: never; }>;


export type AdminUsersQuery = {
  nodeAdminUser: {
    username: string
  },
  nodeInfo: {
    name: string
  },
  nodeUsers: Array<{
    id: string,
    username: string,
    email: string,
    emailVerified: boolean,
    phone: string | null,
    phoneVerified: boolean,
    kycLevel: NodeKycLevel,
    isSuperuser: boolean,
    isActive: boolean,
    twoFactorEnabled: boolean,
    dateJoined: string,
    lastLogin: string | null
  }>
};

export type AdminUtilityRequestsQueryVariables = Exact<{ [key: string]: never; }>;


export type AdminUtilityRequestsQuery = {
  nodeAdminUser: {
    username: string
  },
  adminUtilityRequests: Array<{
    id: string,
    userId: string,
    kind: string,
    status: string,
    provider: string,
    country: string,
    phoneNumber: string | null,
    accountNumber: string | null,
    planId: string | null,
    dispatched: boolean,
    createdAt: string,
    user: {
      username: string
    },
    amount: {
      amount: string,
      currency: string
    }
  }>
};

export type AdminViewKycDocumentMutationVariables = Exact<{
  documentId: string | number;
}>;


export type AdminViewKycDocumentMutation = {
  viewKycDocument: {
    id: string,
    kind: string,
    contentType: string,
    size: number,
    sha256: string,
    objectKey: string
  }
};

export type AdminVirtualAccountsQueryVariables = Exact<{ [key: string]: never; }>;


export type AdminVirtualAccountsQuery = {
  nodeAdminUser: {
    username: string
  },
  adminVirtualAccounts: Array<{
    id: string,
    currency: string,
    rail: string,
    accountNumber: string,
    bankCode: string,
    bankName: string,
    holderName: string,
    createdAt: string,
    sandbox: boolean
  }>
};

export type AdminVoidBankingMovementMutationVariables = Exact<{
  id: string | number;
}>;


export type AdminVoidBankingMovementMutation = {
  adminVoidBankingMovement: {
    id: string,
    status: string
  }
};

export type AdminVoidTransferMutationVariables = Exact<{
  id: string | number;
}>;


export type AdminVoidTransferMutation = {
  voidLedgerTransfer: {
    id: string,
    result: string
  }
};

export type AskAssistantMutationVariables = Exact<{
  question: string;
}>;


export type AskAssistantMutation = {
  askAssistant: {
    answer: string,
    model: string
  }
};

export type AssistantConfiguredQueryVariables = Exact<{ [key: string]: never; }>;


export type AssistantConfiguredQuery = {
  assistantConfigured: boolean
};

export type AttachKycDocumentMutationVariables = Exact<{
  verificationId: string | number;
  kind: string;
  uploadKey: string;
  idempotencyKey?: string | null | undefined;
}>;


export type AttachKycDocumentMutation = {
  attachKycDocument: {
    id: string,
    kind: string,
    contentType: string,
    size: number,
    sha256: string,
    createdAt: string
  }
};

export type BalanceQueryVariables = Exact<{ [key: string]: never; }>;


export type BalanceQuery = {
  balances: Array<{
    currency: string,
    available: {
      amount: string,
      currency: string
    },
    posted: {
      amount: string,
      currency: string
    },
    pending: {
      amount: string,
      currency: string
    }
  }>
};

export type BankingMovementQueryVariables = Exact<{
  id: string | number;
}>;


export type BankingMovementQuery = {
  bankingMovement: {
    id: string,
    kind: string,
    status: string,
    provider: string,
    counterparty: Record<string, unknown>,
    failureReason: string | null,
    createdAt: string,
    updatedAt: string,
    amount: {
      amount: string,
      currency: string
    },
    counterAmount: {
      amount: string,
      currency: string
    } | null
  }
};

export type BankingMovementsQueryVariables = Exact<{
  kinds: Array<string> | string;
  first?: number | null | undefined;
  after?: string | null | undefined;
}>;


export type BankingMovementsQuery = {
  bankingMovements: {
    nextCursor: string | null,
    results: Array<{
      id: string,
      kind: string,
      status: string,
      provider: string,
      counterparty: Record<string, unknown>,
      failureReason: string | null,
      createdAt: string,
      updatedAt: string,
      amount: {
        amount: string,
        currency: string
      },
      counterAmount: {
        amount: string,
        currency: string
      } | null
    }>
  }
};

export type CancelDisputeMutationVariables = Exact<{
  id: string | number;
}>;


export type CancelDisputeMutation = {
  result: {
    id: string,
    reason: string,
    description: string,
    status: string,
    transaction_id: string,
    resolution_note: string | null,
    reversal_transaction_id: string | null,
    created_at: string,
    updated_at: string,
    amount: {
      amount: string,
      currency: string
    },
    attachments: Array<{
      id: string,
      filename: string,
      size: number,
      content_type: string
    }>,
    messages: Array<{
      id: string,
      author: string,
      body: string,
      author_role: string,
      created_at: string
    }>,
    history: Array<{
      actor: string,
      note: string | null,
      at: string,
      from_status: string | null,
      to_status: string
    }>
  }
};

export type CancelInvestmentOrderMutationVariables = Exact<{
  id: string | number;
}>;


export type CancelInvestmentOrderMutation = {
  order: {
    id: string,
    provider: string,
    symbol: string,
    side: string,
    type: string,
    qty: string | null,
    notional: string | null,
    status: string,
    client_order_id: string,
    limit_price: string | null,
    filled_qty: string,
    filled_avg_price: string | null,
    quote_price: string | null,
    reject_reason: string | null,
    submitted_at: string,
    updated_at: string,
    filled_at: string | null,
    reserved: {
      amount: string,
      currency: string
    }
  }
};

export type CancelShopOrderMutationVariables = Exact<{
  orderId: string | number;
}>;


export type CancelShopOrderMutation = {
  result: {
    id: string,
    status: string,
    payment_transaction_id: string | null,
    refund_transaction_id: string | null,
    created_at: string,
    updated_at: string,
    total: {
      amount: string,
      currency: string
    },
    items: Array<{
      name: string,
      quantity: number,
      product_id: string,
      unit_price: {
        amount: string,
        currency: string
      }
    }>,
    history: Array<{
      actor: string,
      note: string | null,
      at: string,
      from_status: string | null,
      to_status: string
    }>
  }
};

export type CardQueryVariables = Exact<{
  id: string | number;
}>;


export type CardQuery = {
  card: {
    id: string,
    brand: string,
    last4: string,
    maskedNumber: string,
    expMonth: number,
    expYear: number,
    currency: string,
    status: string,
    createdAt: string,
    perAuthorisationLimit: {
      amount: string,
      currency: string
    } | null,
    dailyLimit: {
      amount: string,
      currency: string
    } | null
  }
};

export type CardAuthorisationsQueryVariables = Exact<{
  cardId: string | number;
  cursor?: string | null | undefined;
  limit?: number | null | undefined;
}>;


export type CardAuthorisationsQuery = {
  cardAuthorisations: {
    nextCursor: string | null,
    results: Array<{
      id: string,
      cardId: string,
      providerAuthorisationId: string,
      merchantName: string,
      merchantCategory: string,
      status: string,
      declineReason: string | null,
      createdAt: string,
      amount: {
        amount: string,
        currency: string
      },
      capturedAmount: {
        amount: string,
        currency: string
      } | null
    }>
  }
};

export type CardIssuerWebhookMutationVariables = Exact<{
  provider: string;
  signature?: string | null | undefined;
  payload: string;
}>;


export type CardIssuerWebhookMutation = {
  receiveCardIssuerEvent: {
    approved: boolean,
    declineReason: string | null,
    authorisation: {
      id: string,
      cardId: string,
      providerAuthorisationId: string,
      merchantName: string,
      merchantCategory: string,
      status: string,
      declineReason: string | null,
      createdAt: string,
      amount: {
        amount: string,
        currency: string
      },
      capturedAmount: {
        amount: string,
        currency: string
      } | null
    }
  }
};

export type CardsQueryVariables = Exact<{
  cursor?: string | null | undefined;
  limit?: number | null | undefined;
}>;


export type CardsQuery = {
  cards: {
    nextCursor: string | null,
    results: Array<{
      id: string,
      brand: string,
      last4: string,
      maskedNumber: string,
      expMonth: number,
      expYear: number,
      currency: string,
      status: string,
      createdAt: string,
      perAuthorisationLimit: {
        amount: string,
        currency: string
      } | null,
      dailyLimit: {
        amount: string,
        currency: string
      } | null
    }>
  }
};

export type ChangePasswordMutationVariables = Exact<{
  currentPassword: string;
  password: string;
  userAgent?: string | null | undefined;
}>;


export type ChangePasswordMutation = {
  access: {
    access: string,
    token_type: string,
    expires_in: number
  }
};

export type ChangeShopCartItemMutationVariables = Exact<{
  itemId: string | number;
  quantity: number;
}>;


export type ChangeShopCartItemMutation = {
  result: {
    items: Array<{
      id: string,
      name: string,
      quantity: number,
      stock: number,
      product_id: string,
      unit_price: {
        amount: string,
        currency: string
      },
      line_total: {
        amount: string,
        currency: string
      }
    }>,
    total: {
      amount: string,
      currency: string
    } | null
  }
};

export type ClaimReferralMutationVariables = Exact<{
  code: string;
}>;


export type ClaimReferralMutation = {
  result: {
    points: string,
    referral_code: string,
    referred_by: string | null,
    referral_rewarded: boolean,
    rules: {
      points_per_unit_spent: string,
      referrer_bonus: string,
      referred_bonus: string,
      points_per_unit_redeemed: string,
      minimum_redemption: string,
      point_value: {
        amount: string,
        currency: string
      }
    },
    history: Array<{
      id: string,
      rule: string,
      points: string,
      reference: string,
      created_at: string
    }>
  }
};

export type ConfirmPasswordResetMutationVariables = Exact<{
  token: string;
  password: string;
}>;


export type ConfirmPasswordResetMutation = {
  confirmNodePasswordReset: boolean
};

export type ConfirmTotpEnrolmentMutationVariables = Exact<{
  otp: string;
}>;


export type ConfirmTotpEnrolmentMutation = {
  confirmTotpEnrolment: {
    username: string,
    two_factor_enabled: boolean,
    recovery_codes: Array<string>
  }
};

export type CreateCryptoDepositAddressMutationVariables = Exact<{
  asset: string;
}>;


export type CreateCryptoDepositAddressMutation = {
  createCryptoDepositAddress: {
    id: string,
    asset: string,
    network: string,
    address: string,
    createdAt: string
  }
};

export type CreateCryptoQuoteMutationVariables = Exact<{
  fromAsset: string;
  toAsset: string;
  fromAmount: string;
}>;


export type CreateCryptoQuoteMutation = {
  createCryptoQuote: {
    id: string,
    rate: string,
    expiresAt: string,
    createdAt: string,
    fromAmount: {
      amount: string,
      currency: string
    },
    fee: {
      amount: string,
      currency: string
    },
    toAmount: {
      amount: string,
      currency: string
    }
  }
};

export type CreateFxConversionMutationVariables = Exact<{
  quoteId: string | number;
  idempotencyKey?: string | null | undefined;
}>;


export type CreateFxConversionMutation = {
  createFxConversion: {
    id: string,
    quoteId: string,
    status: string,
    rate: string,
    createdAt: string,
    source: {
      amount: string,
      currency: string
    },
    target: {
      amount: string,
      currency: string
    },
    fee: {
      amount: string,
      currency: string
    }
  }
};

export type CreateFxQuoteMutationVariables = Exact<{
  sourceCurrency: string;
  targetCurrency: string;
  sourceAmount: string;
}>;


export type CreateFxQuoteMutation = {
  createFxQuote: {
    id: string,
    rate: string,
    expiresAt: string,
    createdAt: string,
    source: {
      amount: string,
      currency: string
    },
    target: {
      amount: string,
      currency: string
    },
    fee: {
      amount: string,
      currency: string
    }
  }
};

export type CreateRampMutationVariables = Exact<{
  input: RampInput;
  idempotencyKey?: string | null | undefined;
}>;


export type CreateRampMutation = {
  createRamp: {
    id: string,
    kind: string,
    status: string,
    provider: string,
    counterparty: Record<string, unknown>,
    failureReason: string | null,
    createdAt: string,
    updatedAt: string,
    amount: {
      amount: string,
      currency: string
    },
    counterAmount: {
      amount: string,
      currency: string
    } | null
  }
};

export type CreateTransferMutationVariables = Exact<{
  recipient: string;
  amount: string;
  currency: string;
  note?: string | null | undefined;
  idempotencyKey?: string | null | undefined;
}>;


export type CreateTransferMutation = {
  createTransfer: {
    id: string,
    status: string,
    sender: string,
    recipient: string,
    note: string | null,
    createdAt: string,
    amount: {
      amount: string,
      currency: string
    }
  }
};

export type CryptoDepositAddressesQueryVariables = Exact<{ [key: string]: never; }>;


export type CryptoDepositAddressesQuery = {
  cryptoDepositAddresses: Array<{
    id: string,
    asset: string,
    network: string,
    address: string,
    createdAt: string
  }>
};

export type CryptoDepositsQueryVariables = Exact<{
  cursor?: string | null | undefined;
  limit?: number | null | undefined;
}>;


export type CryptoDepositsQuery = {
  cryptoDeposits: {
    nextCursor: string | null,
    results: Array<{
      id: string,
      asset: string,
      address: string,
      txHash: string,
      status: string,
      createdAt: string,
      creditedAt: string | null,
      amount: {
        amount: string,
        currency: string
      }
    }>
  }
};

export type CryptoExchangeWebhookMutationVariables = Exact<{
  provider: string;
  signature?: string | null | undefined;
  payload: string;
}>;


export type CryptoExchangeWebhookMutation = {
  receiveCryptoExchangeEvent: {
    id: string,
    asset: string,
    address: string,
    txHash: string,
    status: string,
    createdAt: string,
    creditedAt: string | null,
    amount: {
      amount: string,
      currency: string
    }
  }
};

export type CryptoSwapsQueryVariables = Exact<{
  cursor?: string | null | undefined;
  limit?: number | null | undefined;
}>;


export type CryptoSwapsQuery = {
  cryptoSwaps: {
    nextCursor: string | null,
    results: Array<{
      id: string,
      quoteId: string,
      rate: string,
      createdAt: string,
      fromAmount: {
        amount: string,
        currency: string
      },
      fee: {
        amount: string,
        currency: string
      },
      toAmount: {
        amount: string,
        currency: string
      }
    }>
  }
};

export type DevOutboxQueryVariables = Exact<{
  first: number;
}>;


export type DevOutboxQuery = {
  nodeDevOutbox: Array<{
    id: string,
    channel: string,
    kind: string,
    sentAt: string,
    from: string | null,
    to: string,
    subject: string,
    body: string
  }>
};

export type DisableTotpMutationVariables = Exact<{
  otp: string;
  currentPassword?: string | null | undefined;
}>;


export type DisableTotpMutation = {
  disableNodeTotp: boolean
};

export type DisputeDetailQueryVariables = Exact<{
  id: string | number;
}>;


export type DisputeDetailQuery = {
  result: {
    id: string,
    reason: string,
    description: string,
    status: string,
    transaction_id: string,
    resolution_note: string | null,
    reversal_transaction_id: string | null,
    created_at: string,
    updated_at: string,
    amount: {
      amount: string,
      currency: string
    },
    attachments: Array<{
      id: string,
      filename: string,
      size: number,
      content_type: string
    }>,
    messages: Array<{
      id: string,
      author: string,
      body: string,
      author_role: string,
      created_at: string
    }>,
    history: Array<{
      actor: string,
      note: string | null,
      at: string,
      from_status: string | null,
      to_status: string
    }>
  }
};

export type DisputeMessagesQueryVariables = Exact<{
  id: string | number;
}>;


export type DisputeMessagesQuery = {
  result: {
    messages: Array<{
      id: string,
      author: string,
      body: string,
      author_role: string,
      created_at: string
    }>
  }
};

export type DisputesQueryVariables = Exact<{
  status?: string | null | undefined;
  limit?: number | null | undefined;
  cursor?: string | null | undefined;
}>;


export type DisputesQuery = {
  result: {
    next_cursor: string | null,
    results: Array<{
      id: string,
      reason: string,
      description: string,
      status: string,
      transaction_id: string,
      resolution_note: string | null,
      reversal_transaction_id: string | null,
      created_at: string,
      updated_at: string,
      amount: {
        amount: string,
        currency: string
      }
    }>
  }
};

export type FeatureFlagsQueryVariables = Exact<{ [key: string]: never; }>;


export type FeatureFlagsQuery = {
  nodeSettings: {
    shopEnabled: boolean,
    investmentsEnabled: boolean,
    virtualIbanEnabled: boolean,
    africanAccountsEnabled: boolean,
    mobileMoneyEnabled: boolean,
    kycRequired: boolean,
    disputesEnabled: boolean,
    cryptoEnabled: boolean,
    fiatRampsEnabled: boolean,
    rewardsEnabled: boolean,
    enforce2fa: boolean,
    enhancedKycRequired: boolean,
    maintenanceMode: boolean,
    maintenanceMessage: string,
    brokerageProvider: string,
    fractionalSharesEnabled: boolean,
    updatedAt: string
  }
};

export type FreezeCardMutationVariables = Exact<{
  id: string | number;
}>;


export type FreezeCardMutation = {
  setCardFrozen: {
    id: string,
    brand: string,
    last4: string,
    maskedNumber: string,
    expMonth: number,
    expYear: number,
    currency: string,
    status: string,
    createdAt: string,
    perAuthorisationLimit: {
      amount: string,
      currency: string
    } | null,
    dailyLimit: {
      amount: string,
      currency: string
    } | null
  }
};

export type GiftCardBrandsQueryVariables = Exact<{
  search?: string | null | undefined;
  country?: string | null | undefined;
  category?: string | null | undefined;
  currency?: string | null | undefined;
}>;


export type GiftCardBrandsQuery = {
  result: Array<{
    id: string,
    name: string,
    category: string,
    countries: Array<{
      country: string,
      currency: string,
      denominations: Array<string>
    }>
  }>
};

export type GiftCardCountriesQueryVariables = Exact<{ [key: string]: never; }>;


export type GiftCardCountriesQuery = {
  result: Array<{
    country: string,
    currencies: Array<string>
  }>
};

export type GiftCardOrdersQueryVariables = Exact<{
  limit?: number | null | undefined;
  cursor?: string | null | undefined;
}>;


export type GiftCardOrdersQuery = {
  result: {
    next_cursor: string | null,
    results: Array<{
      id: string,
      country: string,
      quantity: number,
      fulfilment: string,
      brand_id: string,
      recipient_email: string | null,
      created_at: string,
      denomination: {
        amount: string,
        currency: string
      }
    }>
  }
};

export type InstrumentQuoteQueryVariables = Exact<{
  symbol: string;
}>;


export type InstrumentQuoteQuery = {
  instrumentQuote: {
    symbol: string,
    bid: string | null,
    ask: string | null,
    price: string,
    currency: string,
    at: string
  }
};

export type InstrumentsQueryVariables = Exact<{
  cursor?: string | null | undefined;
  limit?: number | null | undefined;
}>;


export type InstrumentsQuery = {
  instruments: {
    next_cursor: string | null,
    results: Array<{
      provider: string,
      symbol: string,
      name: string,
      issuer: string | null,
      tradable: boolean,
      fractionable: boolean,
      active: boolean,
      asset_class: string,
      quote_currency: string,
      last_price: string | null,
      last_price_at: string | null
    }>
  }
};

export type InvestmentOrdersQueryVariables = Exact<{
  cursor?: string | null | undefined;
  limit?: number | null | undefined;
}>;


export type InvestmentOrdersQuery = {
  investmentOrders: {
    next_cursor: string | null,
    results: Array<{
      id: string,
      provider: string,
      symbol: string,
      side: string,
      type: string,
      qty: string | null,
      notional: string | null,
      status: string,
      client_order_id: string,
      limit_price: string | null,
      filled_qty: string,
      filled_avg_price: string | null,
      quote_price: string | null,
      reject_reason: string | null,
      submitted_at: string,
      updated_at: string,
      filled_at: string | null,
      reserved: {
        amount: string,
        currency: string
      }
    }>
  }
};

export type IssueCardMutationVariables = Exact<{
  currency: string;
  perAuthorisationLimit?: string | null | undefined;
  dailyLimit?: string | null | undefined;
  idempotencyKey?: string | null | undefined;
}>;


export type IssueCardMutation = {
  issueCard: {
    id: string,
    brand: string,
    last4: string,
    maskedNumber: string,
    expMonth: number,
    expYear: number,
    currency: string,
    status: string,
    createdAt: string,
    perAuthorisationLimit: {
      amount: string,
      currency: string
    } | null,
    dailyLimit: {
      amount: string,
      currency: string
    } | null
  }
};

export type KycStatusQueryVariables = Exact<{ [key: string]: never; }>;


export type KycStatusQuery = {
  kycStatus: {
    level: string,
    requiredLevel: string,
    verifications: Array<{
      id: string,
      userId: string,
      level: string,
      state: string,
      provider: string,
      reason: string,
      submittedAt: string | null,
      reviewedAt: string | null,
      expiresAt: string | null,
      createdAt: string,
      updatedAt: string,
      documents: Array<{
        id: string,
        kind: string,
        contentType: string,
        size: number,
        sha256: string,
        createdAt: string
      }>
    }>
  }
};

export type LoginMutationVariables = Exact<{
  username: string;
  password: string;
  otp?: string | null | undefined;
  recoveryCode?: string | null | undefined;
  userAgent?: string | null | undefined;
}>;


export type LoginMutation = {
  access: {
    access: string,
    token_type: string,
    expires_in: number
  }
};

export type LogoutMutationVariables = Exact<{ [key: string]: never; }>;


export type LogoutMutation = {
  nodeLogout: boolean
};

export type LogoutAllMutationVariables = Exact<{ [key: string]: never; }>;


export type LogoutAllMutation = {
  nodeLogoutAll: boolean
};

export type NodeInfoQueryVariables = Exact<{ [key: string]: never; }>;


export type NodeInfoQuery = {
  nodeInfo: {
    name: string,
    version: string,
    hostname: string | null,
    deploymentId: string | null,
    readOnly: boolean,
    maintenance: boolean,
    licence: {
      status: string,
      valid: boolean,
      source: string | null,
      installedAt: string | null,
      checks: Array<string>,
      issuer: string | null,
      keyId: string | null,
      issuedAt: string | null,
      expiresAt: string | null,
      claims: {
        licenceId: string,
        organisationId: string,
        organisationName: string,
        product: string,
        plan: string,
        maxNodes: number,
        maintenanceUntil: string,
        entitlements: Array<string>,
        status: string
      } | null
    },
    checks: Array<{
      id: string,
      level: string,
      message: string,
      hint: string | null
    }> | null,
    deployment: {
      registryUrl: string | null,
      lastHeartbeatAt: string | null,
      lastHeartbeatStatus: string | null
    } | null
  }
};

export type OpenDisputeMutationVariables = Exact<{
  transactionId: string | number;
  reason: string;
  description: string;
  attachments?: Array<AttachmentInput> | AttachmentInput | null | undefined;
  idempotencyKey?: string | null | undefined;
}>;


export type OpenDisputeMutation = {
  result: {
    id: string,
    reason: string,
    description: string,
    status: string,
    transaction_id: string,
    resolution_note: string | null,
    reversal_transaction_id: string | null,
    created_at: string,
    updated_at: string,
    amount: {
      amount: string,
      currency: string
    },
    attachments: Array<{
      id: string,
      filename: string,
      size: number,
      content_type: string
    }>,
    messages: Array<{
      id: string,
      author: string,
      body: string,
      author_role: string,
      created_at: string
    }>,
    history: Array<{
      actor: string,
      note: string | null,
      at: string,
      from_status: string | null,
      to_status: string
    }>
  }
};

export type OpenVirtualAccountMutationVariables = Exact<{
  currency: string;
  idempotencyKey?: string | null | undefined;
}>;


export type OpenVirtualAccountMutation = {
  openVirtualAccount: {
    id: string,
    currency: string,
    rail: string,
    accountNumber: string,
    bankCode: string,
    bankName: string,
    holderName: string,
    createdAt: string,
    sandbox: boolean
  }
};

export type OrderGiftCardMutationVariables = Exact<{
  brandId: string;
  country: string;
  denomination: string;
  quantity?: number | null | undefined;
  recipientEmail?: string | null | undefined;
  idempotencyKey?: string | null | undefined;
}>;


export type OrderGiftCardMutation = {
  result: {
    id: string,
    country: string,
    quantity: number,
    fulfilment: string,
    brand_id: string,
    recipient_email: string | null,
    created_at: string,
    denomination: {
      amount: string,
      currency: string
    }
  }
};

export type PayShopOrderMutationVariables = Exact<{
  orderId: string | number;
  idempotencyKey?: string | null | undefined;
}>;


export type PayShopOrderMutation = {
  result: {
    id: string,
    status: string,
    payment_transaction_id: string | null,
    refund_transaction_id: string | null,
    created_at: string,
    updated_at: string,
    total: {
      amount: string,
      currency: string
    },
    items: Array<{
      name: string,
      quantity: number,
      product_id: string,
      unit_price: {
        amount: string,
        currency: string
      }
    }>,
    history: Array<{
      actor: string,
      note: string | null,
      at: string,
      from_status: string | null,
      to_status: string
    }>
  }
};

export type PeriodStatementQueryVariables = Exact<{
  from: string;
  to: string;
  account?: string | number | null | undefined;
}>;


export type PeriodStatementQuery = {
  ledgerPeriodStatement: Array<{
    accountId: string,
    currency: string,
    opening: {
      amount: string,
      currency: string
    },
    moneyIn: {
      amount: string,
      currency: string
    },
    moneyOut: {
      amount: string,
      currency: string
    },
    closing: {
      amount: string,
      currency: string
    }
  }>
};

export type PortfolioQueryVariables = Exact<{ [key: string]: never; }>;


export type PortfolioQuery = {
  portfolio: Array<{
    symbol: string,
    provider: string,
    qty: string,
    currency: string,
    sellable: boolean,
    held_qty: string,
    average_cost: string,
    cost_basis: string,
    last_price: string | null,
    last_price_at: string | null,
    market_value: string | null,
    unrealized_pl: string | null
  }>
};

export type PortfolioFillsQueryVariables = Exact<{
  cursor?: string | null | undefined;
  limit?: number | null | undefined;
}>;


export type PortfolioFillsQuery = {
  portfolioFills: {
    next_cursor: string | null,
    results: Array<{
      id: string,
      provider: string,
      symbol: string,
      side: string,
      qty: string,
      price: string,
      order_id: string,
      created_at: string
    }>
  }
};

export type PostDisputeMessageMutationVariables = Exact<{
  id: string | number;
  body: string;
}>;


export type PostDisputeMessageMutation = {
  result: {
    id: string,
    author: string,
    body: string,
    author_role: string,
    created_at: string
  }
};

export type ProfileQueryVariables = Exact<{ [key: string]: never; }>;


export type ProfileQuery = {
  nodeUser: {
    id: string,
    username: string,
    email: string,
    emailVerified: boolean,
    phone: string | null,
    phoneVerified: boolean,
    twoFactorEnabled: boolean,
    kycLevel: NodeKycLevel,
    dateJoined: string
  }
};

export type PublicConfigQueryVariables = Exact<{ [key: string]: never; }>;


export type PublicConfigQuery = {
  nodeSignupMode: string,
  nodeInfo: {
    name: string,
    version: string,
    readOnly: boolean,
    maintenance: boolean
  },
  nodeBranding: {
    organisationName: string,
    legalEntity: string,
    logoUrl: string,
    faviconUrl: string,
    colorPrimary: string,
    colorSecondary: string,
    colorAccent: string,
    supportEmail: string,
    supportPhone: string,
    termsUrl: string,
    privacyUrl: string
  },
  nodeSettings: {
    shopEnabled: boolean,
    investmentsEnabled: boolean,
    virtualIbanEnabled: boolean,
    africanAccountsEnabled: boolean,
    mobileMoneyEnabled: boolean,
    kycRequired: boolean,
    disputesEnabled: boolean,
    cryptoEnabled: boolean,
    fiatRampsEnabled: boolean,
    rewardsEnabled: boolean,
    enforce2fa: boolean,
    enhancedKycRequired: boolean,
    maintenanceMode: boolean,
    maintenanceMessage: string,
    brokerageProvider: string,
    fractionalSharesEnabled: boolean,
    updatedAt: string
  },
  nodeBankingRails: Array<{
    rail: string,
    currencies: Array<string>,
    module: string
  }>
};

export type PublicLogoQueryVariables = Exact<{ [key: string]: never; }>;


export type PublicLogoQuery = {
  nodeBranding: {
    logo: {
      objectKey: string,
      contentType: string,
      size: number,
      sha256: string,
      uploadedAt: string
    } | null
  }
};

export type ReadinessQueryVariables = Exact<{ [key: string]: never; }>;


export type ReadinessQuery = {
  nodeReadiness: {
    subgraph: string,
    ready: boolean,
    database: boolean,
    pendingMigrations: Array<string>
  },
  identityReadiness: {
    subgraph: string,
    ready: boolean,
    database: boolean,
    pendingMigrations: Array<string>
  },
  ledgerReadiness: {
    subgraph: string,
    ready: boolean,
    database: boolean,
    pendingMigrations: Array<string>
  },
  complianceReadiness: {
    subgraph: string,
    ready: boolean,
    database: boolean,
    pendingMigrations: Array<string>
  },
  bankingReadiness: {
    subgraph: string,
    ready: boolean,
    database: boolean,
    pendingMigrations: Array<string>
  },
  cardsReadiness: {
    subgraph: string,
    ready: boolean,
    database: boolean,
    pendingMigrations: Array<string>
  },
  cryptoReadiness: {
    subgraph: string,
    ready: boolean,
    database: boolean,
    pendingMigrations: Array<string>
  },
  commerceReadiness: {
    subgraph: string,
    ready: boolean,
    database: boolean,
    pendingMigrations: Array<string>
  },
  investingReadiness: {
    subgraph: string,
    ready: boolean,
    database: boolean,
    pendingMigrations: Array<string>
  },
  paymentsReadiness: {
    subgraph: string,
    ready: boolean,
    database: boolean,
    pendingMigrations: Array<string>
  }
};

export type ReceiveBankingWebhookMutationVariables = Exact<{
  provider: string;
  payload: string;
  timestamp?: string | null | undefined;
  signature?: string | null | undefined;
}>;


export type ReceiveBankingWebhookMutation = {
  receiveBankingWebhook: {
    received: boolean,
    outcome: string
  }
};

export type ReceiveKycWebhookMutationVariables = Exact<{
  provider: string;
  payload: string;
  digest?: string | null | undefined;
  digestAlgorithm?: string | null | undefined;
}>;


export type ReceiveKycWebhookMutation = {
  receiveKycWebhook: {
    received: boolean,
    applied: boolean
  }
};

export type RedeemRewardPointsMutationVariables = Exact<{
  points: number;
  currency: string;
  idempotencyKey?: string | null | undefined;
}>;


export type RedeemRewardPointsMutation = {
  result: {
    points: string,
    credited: {
      amount: string,
      currency: string
    }
  }
};

export type RemoveShopCartItemMutationVariables = Exact<{
  itemId: string | number;
}>;


export type RemoveShopCartItemMutation = {
  result: {
    items: Array<{
      id: string,
      name: string,
      quantity: number,
      stock: number,
      product_id: string,
      unit_price: {
        amount: string,
        currency: string
      },
      line_total: {
        amount: string,
        currency: string
      }
    }>,
    total: {
      amount: string,
      currency: string
    } | null
  }
};

export type RenewRecoveryCodesMutationVariables = Exact<{
  otp: string;
}>;


export type RenewRecoveryCodesMutation = {
  renewNodeRecoveryCodes: Array<string>
};

export type RequestAirtimeMutationVariables = Exact<{
  operator: string;
  phoneNumber: string;
  amount: string;
  currency: string;
  idempotencyKey?: string | null | undefined;
}>;


export type RequestAirtimeMutation = {
  result: {
    id: string,
    kind: string,
    status: string,
    provider: string,
    country: string,
    dispatched: boolean,
    phone_number: string | null,
    account_number: string | null,
    plan_id: string | null,
    created_at: string,
    amount: {
      amount: string,
      currency: string
    }
  }
};

export type RequestBillPaymentMutationVariables = Exact<{
  biller: string;
  accountNumber: string;
  amount: string;
  currency: string;
  idempotencyKey?: string | null | undefined;
}>;


export type RequestBillPaymentMutation = {
  result: {
    id: string,
    kind: string,
    status: string,
    provider: string,
    country: string,
    dispatched: boolean,
    phone_number: string | null,
    account_number: string | null,
    plan_id: string | null,
    created_at: string,
    amount: {
      amount: string,
      currency: string
    }
  }
};

export type RequestDataBundleMutationVariables = Exact<{
  operator: string;
  phoneNumber: string;
  planId: string;
  idempotencyKey?: string | null | undefined;
}>;


export type RequestDataBundleMutation = {
  result: {
    id: string,
    kind: string,
    status: string,
    provider: string,
    country: string,
    dispatched: boolean,
    phone_number: string | null,
    account_number: string | null,
    plan_id: string | null,
    created_at: string,
    amount: {
      amount: string,
      currency: string
    }
  }
};

export type RequestMobileMoneyDepositMutationVariables = Exact<{
  input: MobileMoneyInput;
  idempotencyKey?: string | null | undefined;
}>;


export type RequestMobileMoneyDepositMutation = {
  requestMobileMoneyDeposit: {
    id: string,
    kind: string,
    status: string,
    provider: string,
    counterparty: Record<string, unknown>,
    failureReason: string | null,
    createdAt: string,
    updatedAt: string,
    amount: {
      amount: string,
      currency: string
    },
    counterAmount: {
      amount: string,
      currency: string
    } | null
  }
};

export type RequestMobileMoneyWithdrawalMutationVariables = Exact<{
  input: MobileMoneyInput;
  idempotencyKey?: string | null | undefined;
}>;


export type RequestMobileMoneyWithdrawalMutation = {
  requestMobileMoneyWithdrawal: {
    id: string,
    kind: string,
    status: string,
    provider: string,
    counterparty: Record<string, unknown>,
    failureReason: string | null,
    createdAt: string,
    updatedAt: string,
    amount: {
      amount: string,
      currency: string
    },
    counterAmount: {
      amount: string,
      currency: string
    } | null
  }
};

export type RequestPasswordResetMutationVariables = Exact<{
  email: string;
  requestOrigin?: string | null | undefined;
}>;


export type RequestPasswordResetMutation = {
  requestNodePasswordReset: boolean
};

export type ResendEmailVerificationMutationVariables = Exact<{
  requestOrigin?: string | null | undefined;
}>;


export type ResendEmailVerificationMutation = {
  resendNodeEmailVerification: boolean
};

export type RevealCardMutationVariables = Exact<{
  id: string | number;
  password: string;
  otp?: string | null | undefined;
}>;


export type RevealCardMutation = {
  revealCard: {
    id: string,
    number: string,
    cvc: string,
    expMonth: number,
    expYear: number
  }
};

export type RevokeSessionMutationVariables = Exact<{
  id: string | number;
}>;


export type RevokeSessionMutation = {
  revokeNodeSession: boolean
};

export type RewardsSummaryQueryVariables = Exact<{ [key: string]: never; }>;


export type RewardsSummaryQuery = {
  result: {
    points: string,
    referral_code: string,
    referred_by: string | null,
    referral_rewarded: boolean,
    rules: {
      points_per_unit_spent: string,
      referrer_bonus: string,
      referred_bonus: string,
      points_per_unit_redeemed: string,
      minimum_redemption: string,
      point_value: {
        amount: string,
        currency: string
      }
    },
    history: Array<{
      id: string,
      rule: string,
      points: string,
      reference: string,
      created_at: string
    }>
  }
};

export type SendBankTransferMutationVariables = Exact<{
  input: BankTransferInput;
  idempotencyKey?: string | null | undefined;
}>;


export type SendBankTransferMutation = {
  sendBankTransfer: {
    id: string,
    kind: string,
    status: string,
    provider: string,
    counterparty: Record<string, unknown>,
    failureReason: string | null,
    createdAt: string,
    updatedAt: string,
    amount: {
      amount: string,
      currency: string
    },
    counterAmount: {
      amount: string,
      currency: string
    } | null
  }
};

export type SessionsQueryVariables = Exact<{ [key: string]: never; }>;


export type SessionsQuery = {
  nodeSessions: Array<{
    id: string,
    ip: string,
    current: boolean,
    created_at: string,
    last_seen_at: string,
    user_agent: string
  }>
};

export type SetPhoneMutationVariables = Exact<{
  phone?: string | null | undefined;
}>;


export type SetPhoneMutation = {
  setMyPhone: {
    username: string,
    phone: string | null,
    verified: boolean,
    codeExpiresAt: string | null
  }
};

export type ShopCartQueryVariables = Exact<{ [key: string]: never; }>;


export type ShopCartQuery = {
  result: {
    items: Array<{
      id: string,
      name: string,
      quantity: number,
      stock: number,
      product_id: string,
      unit_price: {
        amount: string,
        currency: string
      },
      line_total: {
        amount: string,
        currency: string
      }
    }>,
    total: {
      amount: string,
      currency: string
    } | null
  }
};

export type ShopCheckoutMutationVariables = Exact<{
  idempotencyKey?: string | null | undefined;
}>;


export type ShopCheckoutMutation = {
  result: {
    id: string,
    status: string,
    payment_transaction_id: string | null,
    refund_transaction_id: string | null,
    created_at: string,
    updated_at: string,
    total: {
      amount: string,
      currency: string
    },
    items: Array<{
      name: string,
      quantity: number,
      product_id: string,
      unit_price: {
        amount: string,
        currency: string
      }
    }>,
    history: Array<{
      actor: string,
      note: string | null,
      at: string,
      from_status: string | null,
      to_status: string
    }>
  }
};

export type ShopOrderQueryVariables = Exact<{
  id: string | number;
}>;


export type ShopOrderQuery = {
  result: {
    id: string,
    status: string,
    payment_transaction_id: string | null,
    refund_transaction_id: string | null,
    created_at: string,
    updated_at: string,
    total: {
      amount: string,
      currency: string
    },
    items: Array<{
      name: string,
      quantity: number,
      product_id: string,
      unit_price: {
        amount: string,
        currency: string
      }
    }>,
    history: Array<{
      actor: string,
      note: string | null,
      at: string,
      from_status: string | null,
      to_status: string
    }>
  }
};

export type ShopOrdersQueryVariables = Exact<{
  limit?: number | null | undefined;
  cursor?: string | null | undefined;
}>;


export type ShopOrdersQuery = {
  result: {
    next_cursor: string | null,
    results: Array<{
      id: string,
      status: string,
      payment_transaction_id: string | null,
      refund_transaction_id: string | null,
      created_at: string,
      updated_at: string,
      total: {
        amount: string,
        currency: string
      },
      items: Array<{
        name: string,
        quantity: number,
        product_id: string,
        unit_price: {
          amount: string,
          currency: string
        }
      }>,
      history: Array<{
        actor: string,
        note: string | null,
        at: string,
        from_status: string | null,
        to_status: string
      }>
    }>
  }
};

export type ShopProductQueryVariables = Exact<{
  id: string | number;
}>;


export type ShopProductQuery = {
  result: {
    id: string,
    name: string,
    description: string,
    stock: number,
    active: boolean,
    image_content_type: string | null,
    created_at: string,
    price: {
      amount: string,
      currency: string
    }
  }
};

export type ShopProductsQueryVariables = Exact<{
  search?: string | null | undefined;
  limit?: number | null | undefined;
  cursor?: string | null | undefined;
}>;


export type ShopProductsQuery = {
  result: {
    next_cursor: string | null,
    results: Array<{
      id: string,
      name: string,
      description: string,
      stock: number,
      active: boolean,
      image_content_type: string | null,
      created_at: string,
      price: {
        amount: string,
        currency: string
      }
    }>
  }
};

export type SignupMutationVariables = Exact<{
  username: string;
  email: string;
  password: string;
  inviteCode?: string | null | undefined;
  requestOrigin?: string | null | undefined;
}>;


export type SignupMutation = {
  nodeSignup: {
    id: string,
    username: string,
    email: string,
    email_verified: boolean
  }
};

export type SimulateIncomingTransferMutationVariables = Exact<{
  accountId: string | number;
  amount: string;
}>;


export type SimulateIncomingTransferMutation = {
  simulateIncomingTransfer: {
    id: string,
    kind: string,
    status: string,
    provider: string,
    counterparty: Record<string, unknown>,
    failureReason: string | null,
    createdAt: string,
    updatedAt: string,
    amount: {
      amount: string,
      currency: string
    },
    counterAmount: {
      amount: string,
      currency: string
    } | null
  }
};

export type StartKycVerificationMutationVariables = Exact<{
  level: string;
  firstName: string;
  lastName: string;
}>;


export type StartKycVerificationMutation = {
  startKycVerification: {
    id: string,
    userId: string,
    level: string,
    state: string,
    provider: string,
    reason: string,
    submittedAt: string | null,
    reviewedAt: string | null,
    expiresAt: string | null,
    createdAt: string,
    updatedAt: string,
    documents: Array<{
      id: string,
      kind: string,
      contentType: string,
      size: number,
      sha256: string,
      createdAt: string
    }>
  }
};

export type StartTotpEnrolmentMutationVariables = Exact<{
  currentPassword?: string | null | undefined;
}>;


export type StartTotpEnrolmentMutation = {
  startTotpEnrolment: {
    secret: string,
    otpauth_uri: string,
    qr_code: string
  }
};

export type SubmitInvestmentOrderMutationVariables = Exact<{
  order: InvestmentOrderInput;
  idempotencyKey?: string | null | undefined;
}>;


export type SubmitInvestmentOrderMutation = {
  order: {
    id: string,
    provider: string,
    symbol: string,
    side: string,
    type: string,
    qty: string | null,
    notional: string | null,
    status: string,
    client_order_id: string,
    limit_price: string | null,
    filled_qty: string,
    filled_avg_price: string | null,
    quote_price: string | null,
    reject_reason: string | null,
    submitted_at: string,
    updated_at: string,
    filled_at: string | null,
    reserved: {
      amount: string,
      currency: string
    }
  }
};

export type SubmitKycVerificationMutationVariables = Exact<{
  verificationId: string | number;
}>;


export type SubmitKycVerificationMutation = {
  submitKycVerification: {
    id: string,
    userId: string,
    level: string,
    state: string,
    provider: string,
    reason: string,
    submittedAt: string | null,
    reviewedAt: string | null,
    expiresAt: string | null,
    createdAt: string,
    updatedAt: string,
    documents: Array<{
      id: string,
      kind: string,
      contentType: string,
      size: number,
      sha256: string,
      createdAt: string
    }>
  }
};

export type SwapCryptoMutationVariables = Exact<{
  quoteId: string | number;
  idempotencyKey?: string | null | undefined;
}>;


export type SwapCryptoMutation = {
  swapCrypto: {
    id: string,
    quoteId: string,
    rate: string,
    createdAt: string,
    fromAmount: {
      amount: string,
      currency: string
    },
    fee: {
      amount: string,
      currency: string
    },
    toAmount: {
      amount: string,
      currency: string
    }
  }
};

export type TransactionReceiptQueryVariables = Exact<{
  id: string | number;
}>;


export type TransactionReceiptQuery = {
  ledgerReceipt: {
    id: string,
    accountId: string,
    direction: string,
    code: string,
    status: string,
    description: string | null,
    note: string | null,
    counterparty: string | null,
    createdAt: string,
    settledAt: string | null,
    amount: {
      amount: string,
      currency: string
    }
  }
};

export type TransactionsQueryVariables = Exact<{
  account?: string | number | null | undefined;
  from?: string | null | undefined;
  to?: string | null | undefined;
  cursor?: string | null | undefined;
  limit?: number | null | undefined;
  direction?: string | null | undefined;
  status?: string | null | undefined;
}>;


export type TransactionsQuery = {
  ledgerStatement: {
    nextCursor: string | null,
    results: Array<{
      id: string,
      accountId: string,
      direction: string,
      code: string,
      status: string,
      description: string | null,
      note: string | null,
      counterparty: string | null,
      createdAt: string,
      settledAt: string | null,
      amount: {
        amount: string,
        currency: string
      }
    }>
  }
};

export type TransferRecipientQueryVariables = Exact<{
  reference: string;
}>;


export type TransferRecipientQuery = {
  transferRecipient: {
    username: string,
    verified: boolean
  }
};

export type UnfreezeCardMutationVariables = Exact<{
  id: string | number;
}>;


export type UnfreezeCardMutation = {
  setCardFrozen: {
    id: string,
    brand: string,
    last4: string,
    maskedNumber: string,
    expMonth: number,
    expYear: number,
    currency: string,
    status: string,
    createdAt: string,
    perAuthorisationLimit: {
      amount: string,
      currency: string
    } | null,
    dailyLimit: {
      amount: string,
      currency: string
    } | null
  }
};

export type UpdateCardLimitsMutationVariables = Exact<{
  id: string | number;
  perAuthorisationLimit?: string | null | undefined;
  dailyLimit?: string | null | undefined;
  clear?: Array<string> | string | null | undefined;
}>;


export type UpdateCardLimitsMutation = {
  updateCardLimits: {
    id: string,
    brand: string,
    last4: string,
    maskedNumber: string,
    expMonth: number,
    expYear: number,
    currency: string,
    status: string,
    createdAt: string,
    perAuthorisationLimit: {
      amount: string,
      currency: string
    } | null,
    dailyLimit: {
      amount: string,
      currency: string
    } | null
  }
};

export type UploadKycDocumentMutationVariables = Exact<{
  verificationId: string | number;
  kind: string;
  contentBase64: string;
  idempotencyKey?: string | null | undefined;
}>;


export type UploadKycDocumentMutation = {
  uploadKycDocument: {
    id: string,
    kind: string,
    contentType: string,
    size: number,
    sha256: string,
    createdAt: string
  }
};

export type UtilityCatalogueQueryVariables = Exact<{ [key: string]: never; }>;


export type UtilityCatalogueQuery = {
  result: {
    states: Array<string>,
    operators: Array<{
      code: string,
      name: string,
      country: string,
      min_amount: {
        amount: string,
        currency: string
      },
      max_amount: {
        amount: string,
        currency: string
      },
      plans: Array<{
        id: string,
        name: string,
        validity_days: number,
        price: {
          amount: string,
          currency: string
        }
      }>
    }>,
    billers: Array<{
      code: string,
      name: string,
      country: string,
      category: string,
      account_format: string,
      min_amount: {
        amount: string,
        currency: string
      },
      max_amount: {
        amount: string,
        currency: string
      }
    }>
  }
};

export type UtilityRequestsQueryVariables = Exact<{
  limit?: number | null | undefined;
  cursor?: string | null | undefined;
}>;


export type UtilityRequestsQuery = {
  result: {
    next_cursor: string | null,
    results: Array<{
      id: string,
      kind: string,
      status: string,
      provider: string,
      country: string,
      dispatched: boolean,
      phone_number: string | null,
      account_number: string | null,
      plan_id: string | null,
      created_at: string,
      amount: {
        amount: string,
        currency: string
      }
    }>
  }
};

export type VerifyEmailMutationVariables = Exact<{
  token: string;
}>;


export type VerifyEmailMutation = {
  verifyNodeEmail: boolean
};

export type VerifyPhoneMutationVariables = Exact<{
  code: string;
}>;


export type VerifyPhoneMutation = {
  verifyMyPhone: {
    username: string,
    phone: string | null,
    verified: boolean
  }
};

export type VirtualAccountsQueryVariables = Exact<{ [key: string]: never; }>;


export type VirtualAccountsQuery = {
  bankingVirtualAccounts: Array<{
    id: string,
    currency: string,
    rail: string,
    accountNumber: string,
    bankCode: string,
    bankName: string,
    holderName: string,
    createdAt: string,
    sandbox: boolean
  }>
};

export type AdminNodeSettingsFieldsFragment = {
  updatedBy: string | null,
  shopEnabled: boolean,
  investmentsEnabled: boolean,
  virtualIbanEnabled: boolean,
  africanAccountsEnabled: boolean,
  mobileMoneyEnabled: boolean,
  kycRequired: boolean,
  disputesEnabled: boolean,
  cryptoEnabled: boolean,
  fiatRampsEnabled: boolean,
  rewardsEnabled: boolean,
  enforce2fa: boolean,
  enhancedKycRequired: boolean,
  maintenanceMode: boolean,
  maintenanceMessage: string,
  brokerageProvider: string,
  fractionalSharesEnabled: boolean,
  updatedAt: string
};

export type BankingMovementFieldsFragment = {
  id: string,
  kind: string,
  status: string,
  provider: string,
  counterparty: Record<string, unknown>,
  failureReason: string | null,
  createdAt: string,
  updatedAt: string,
  amount: {
    amount: string,
    currency: string
  },
  counterAmount: {
    amount: string,
    currency: string
  } | null
};

export type CardAuthorisationFieldsFragment = {
  id: string,
  cardId: string,
  providerAuthorisationId: string,
  merchantName: string,
  merchantCategory: string,
  status: string,
  declineReason: string | null,
  createdAt: string,
  amount: {
    amount: string,
    currency: string
  },
  capturedAmount: {
    amount: string,
    currency: string
  } | null
};

export type CardFieldsFragment = {
  id: string,
  brand: string,
  last4: string,
  maskedNumber: string,
  expMonth: number,
  expYear: number,
  currency: string,
  status: string,
  createdAt: string,
  perAuthorisationLimit: {
    amount: string,
    currency: string
  } | null,
  dailyLimit: {
    amount: string,
    currency: string
  } | null
};

export type CartFieldsFragment = {
  items: Array<{
    id: string,
    name: string,
    quantity: number,
    stock: number,
    product_id: string,
    unit_price: {
      amount: string,
      currency: string
    },
    line_total: {
      amount: string,
      currency: string
    }
  }>,
  total: {
    amount: string,
    currency: string
  } | null
};

export type CryptoDepositAddressFieldsFragment = {
  id: string,
  asset: string,
  network: string,
  address: string,
  createdAt: string
};

export type CryptoDepositFieldsFragment = {
  id: string,
  asset: string,
  address: string,
  txHash: string,
  status: string,
  createdAt: string,
  creditedAt: string | null,
  amount: {
    amount: string,
    currency: string
  }
};

export type CryptoSwapFieldsFragment = {
  id: string,
  quoteId: string,
  rate: string,
  createdAt: string,
  fromAmount: {
    amount: string,
    currency: string
  },
  fee: {
    amount: string,
    currency: string
  },
  toAmount: {
    amount: string,
    currency: string
  }
};

export type DisputeFieldsFragment = {
  id: string,
  reason: string,
  description: string,
  status: string,
  transaction_id: string,
  resolution_note: string | null,
  reversal_transaction_id: string | null,
  created_at: string,
  updated_at: string,
  amount: {
    amount: string,
    currency: string
  },
  attachments: Array<{
    id: string,
    filename: string,
    size: number,
    content_type: string
  }>,
  messages: Array<{
    id: string,
    author: string,
    body: string,
    author_role: string,
    created_at: string
  }>,
  history: Array<{
    actor: string,
    note: string | null,
    at: string,
    from_status: string | null,
    to_status: string
  }>
};

export type DisputeMessageFieldsFragment = {
  id: string,
  author: string,
  body: string,
  author_role: string,
  created_at: string
};

export type GiftCardOrderFieldsFragment = {
  id: string,
  country: string,
  quantity: number,
  fulfilment: string,
  brand_id: string,
  recipient_email: string | null,
  created_at: string,
  denomination: {
    amount: string,
    currency: string
  }
};

export type InvestmentOrderFieldsFragment = {
  id: string,
  provider: string,
  symbol: string,
  side: string,
  type: string,
  qty: string | null,
  notional: string | null,
  status: string,
  client_order_id: string,
  limit_price: string | null,
  filled_qty: string,
  filled_avg_price: string | null,
  quote_price: string | null,
  reject_reason: string | null,
  submitted_at: string,
  updated_at: string,
  filled_at: string | null,
  reserved: {
    amount: string,
    currency: string
  }
};

export type KycDocumentFieldsFragment = {
  id: string,
  kind: string,
  contentType: string,
  size: number,
  sha256: string,
  createdAt: string
};

export type KycVerificationFieldsFragment = {
  id: string,
  userId: string,
  level: string,
  state: string,
  provider: string,
  reason: string,
  submittedAt: string | null,
  reviewedAt: string | null,
  expiresAt: string | null,
  createdAt: string,
  updatedAt: string,
  documents: Array<{
    id: string,
    kind: string,
    contentType: string,
    size: number,
    sha256: string,
    createdAt: string
  }>
};

export type NodeInviteFieldsFragment = {
  id: string,
  hint: string,
  note: string,
  createdBy: string,
  createdAt: string,
  expiresAt: string | null,
  usedAt: string | null
};

export type NodeSettingsFieldsFragment = {
  shopEnabled: boolean,
  investmentsEnabled: boolean,
  virtualIbanEnabled: boolean,
  africanAccountsEnabled: boolean,
  mobileMoneyEnabled: boolean,
  kycRequired: boolean,
  disputesEnabled: boolean,
  cryptoEnabled: boolean,
  fiatRampsEnabled: boolean,
  rewardsEnabled: boolean,
  enforce2fa: boolean,
  enhancedKycRequired: boolean,
  maintenanceMode: boolean,
  maintenanceMessage: string,
  brokerageProvider: string,
  fractionalSharesEnabled: boolean,
  updatedAt: string
};

export type RewardsSummaryFieldsFragment = {
  points: string,
  referral_code: string,
  referred_by: string | null,
  referral_rewarded: boolean,
  rules: {
    points_per_unit_spent: string,
    referrer_bonus: string,
    referred_bonus: string,
    points_per_unit_redeemed: string,
    minimum_redemption: string,
    point_value: {
      amount: string,
      currency: string
    }
  },
  history: Array<{
    id: string,
    rule: string,
    points: string,
    reference: string,
    created_at: string
  }>
};

export type ShopOrderFieldsFragment = {
  id: string,
  status: string,
  payment_transaction_id: string | null,
  refund_transaction_id: string | null,
  created_at: string,
  updated_at: string,
  total: {
    amount: string,
    currency: string
  },
  items: Array<{
    name: string,
    quantity: number,
    product_id: string,
    unit_price: {
      amount: string,
      currency: string
    }
  }>,
  history: Array<{
    actor: string,
    note: string | null,
    at: string,
    from_status: string | null,
    to_status: string
  }>
};

export type ShopProductFieldsFragment = {
  id: string,
  name: string,
  description: string,
  stock: number,
  active: boolean,
  image_content_type: string | null,
  created_at: string,
  price: {
    amount: string,
    currency: string
  }
};

export type StateChangeFieldsFragment = {
  actor: string,
  note: string | null,
  at: string,
  from_status: string | null,
  to_status: string
};

export type StatementLineFragment = {
  id: string,
  accountId: string,
  direction: string,
  code: string,
  status: string,
  description: string | null,
  note: string | null,
  counterparty: string | null,
  createdAt: string,
  settledAt: string | null,
  amount: {
    amount: string,
    currency: string
  }
};

export type UtilityRequestFieldsFragment = {
  id: string,
  kind: string,
  status: string,
  provider: string,
  country: string,
  dispatched: boolean,
  phone_number: string | null,
  account_number: string | null,
  plan_id: string | null,
  created_at: string,
  amount: {
    amount: string,
    currency: string
  }
};

export type VirtualAccountFieldsFragment = {
  id: string,
  currency: string,
  rail: string,
  accountNumber: string,
  bankCode: string,
  bankName: string,
  holderName: string,
  createdAt: string,
  sandbox: boolean
};

/** Each persisted operation's result and variables, by operation name. */
export interface Operations {
  Accounts: { result: AccountsQuery; variables: AccountsQueryVariables };
  AddShopCartItem: { result: AddShopCartItemMutation; variables: AddShopCartItemMutationVariables };
  AdminAccounts: { result: AdminAccountsQuery; variables: AdminAccountsQueryVariables };
  AdminActivateLicence: { result: AdminActivateLicenceMutation; variables: AdminActivateLicenceMutationVariables };
  AdminActivity: { result: AdminActivityQuery; variables: AdminActivityQueryVariables };
  AdminAdjustments: { result: AdminAdjustmentsQuery; variables: AdminAdjustmentsQueryVariables };
  AdminAppIndex: { result: AdminAppIndexQuery; variables: AdminAppIndexQueryVariables };
  AdminApproveAdjustment: { result: AdminApproveAdjustmentMutation; variables: AdminApproveAdjustmentMutationVariables };
  AdminApproveOperatorChange: { result: AdminApproveOperatorChangeMutation; variables: AdminApproveOperatorChangeMutationVariables };
  AdminAuditLog: { result: AdminAuditLogQuery; variables: AdminAuditLogQueryVariables };
  AdminBankingEvents: { result: AdminBankingEventsQuery; variables: AdminBankingEventsQueryVariables };
  AdminBankingMovements: { result: AdminBankingMovementsQuery; variables: AdminBankingMovementsQueryVariables };
  AdminBranding: { result: AdminBrandingQuery; variables: AdminBrandingQueryVariables };
  AdminCancelShopOrder: { result: AdminCancelShopOrderMutation; variables: AdminCancelShopOrderMutationVariables };
  AdminCardAuthorisations: { result: AdminCardAuthorisationsQuery; variables: AdminCardAuthorisationsQueryVariables };
  AdminCards: { result: AdminCardsQuery; variables: AdminCardsQueryVariables };
  AdminCommerceProducts: { result: AdminCommerceProductsQuery; variables: AdminCommerceProductsQueryVariables };
  AdminCompleteTotpEnrolment: { result: AdminCompleteTotpEnrolmentMutation; variables: AdminCompleteTotpEnrolmentMutationVariables };
  AdminCreateInvite: { result: AdminCreateInviteMutation; variables: AdminCreateInviteMutationVariables };
  AdminCreateShopProduct: { result: AdminCreateShopProductMutation; variables: AdminCreateShopProductMutationVariables };
  AdminCreateUser: { result: AdminCreateUserMutation; variables: AdminCreateUserMutationVariables };
  AdminCryptoAddresses: { result: AdminCryptoAddressesQuery; variables: AdminCryptoAddressesQueryVariables };
  AdminCryptoDeposits: { result: AdminCryptoDepositsQuery; variables: AdminCryptoDepositsQueryVariables };
  AdminCryptoSwaps: { result: AdminCryptoSwapsQuery; variables: AdminCryptoSwapsQueryVariables };
  AdminDashboard: { result: AdminDashboardQuery; variables: AdminDashboardQueryVariables };
  AdminDeleteProviderCredential: { result: AdminDeleteProviderCredentialMutation; variables: AdminDeleteProviderCredentialMutationVariables };
  AdminDispute: { result: AdminDisputeQuery; variables: AdminDisputeQueryVariables };
  AdminDisputes: { result: AdminDisputesQuery; variables: AdminDisputesQueryVariables };
  AdminFulfilShopOrder: { result: AdminFulfilShopOrderMutation; variables: AdminFulfilShopOrderMutationVariables };
  AdminGiftCardOrders: { result: AdminGiftCardOrdersQuery; variables: AdminGiftCardOrdersQueryVariables };
  AdminInstallLicence: { result: AdminInstallLicenceMutation; variables: AdminInstallLicenceMutationVariables };
  AdminInstruments: { result: AdminInstrumentsQuery; variables: AdminInstrumentsQueryVariables };
  AdminInvestingRuns: { result: AdminInvestingRunsQuery; variables: AdminInvestingRunsQueryVariables };
  AdminInvestmentOrders: { result: AdminInvestmentOrdersQuery; variables: AdminInvestmentOrdersQueryVariables };
  AdminKycVerifications: { result: AdminKycVerificationsQuery; variables: AdminKycVerificationsQueryVariables };
  AdminLicence: { result: AdminLicenceQuery; variables: AdminLicenceQueryVariables };
  AdminLoginPage: { result: AdminLoginPageQuery; variables: AdminLoginPageQueryVariables };
  AdminOperatorChanges: { result: AdminOperatorChangesQuery; variables: AdminOperatorChangesQueryVariables };
  AdminPendingTransfers: { result: AdminPendingTransfersQuery; variables: AdminPendingTransfersQueryVariables };
  AdminPostDisputeMessage: { result: AdminPostDisputeMessageMutation; variables: AdminPostDisputeMessageMutationVariables };
  AdminProposeAdjustment: { result: AdminProposeAdjustmentMutation; variables: AdminProposeAdjustmentMutationVariables };
  AdminProposeOperatorChange: { result: AdminProposeOperatorChangeMutation; variables: AdminProposeOperatorChangeMutationVariables };
  AdminProviderCredentials: { result: AdminProviderCredentialsQuery; variables: AdminProviderCredentialsQueryVariables };
  AdminProviderEvents: { result: AdminProviderEventsQuery; variables: AdminProviderEventsQueryVariables };
  AdminReconciliation: { result: AdminReconciliationQuery; variables: AdminReconciliationQueryVariables };
  AdminRejectAdjustment: { result: AdminRejectAdjustmentMutation; variables: AdminRejectAdjustmentMutationVariables };
  AdminRejectDispute: { result: AdminRejectDisputeMutation; variables: AdminRejectDisputeMutationVariables };
  AdminRejectOperatorChange: { result: AdminRejectOperatorChangeMutation; variables: AdminRejectOperatorChangeMutationVariables };
  AdminResolveDispute: { result: AdminResolveDisputeMutation; variables: AdminResolveDisputeMutationVariables };
  AdminReviewDispute: { result: AdminReviewDisputeMutation; variables: AdminReviewDisputeMutationVariables };
  AdminReviewKycVerification: { result: AdminReviewKycVerificationMutation; variables: AdminReviewKycVerificationMutationVariables };
  AdminRewards: { result: AdminRewardsQuery; variables: AdminRewardsQueryVariables };
  AdminSaveProviderCredential: { result: AdminSaveProviderCredentialMutation; variables: AdminSaveProviderCredentialMutationVariables };
  AdminSetShopProductImage: { result: AdminSetShopProductImageMutation; variables: AdminSetShopProductImageMutationVariables };
  AdminSetSignupMode: { result: AdminSetSignupModeMutation; variables: AdminSetSignupModeMutationVariables };
  AdminSettings: { result: AdminSettingsQuery; variables: AdminSettingsQueryVariables };
  AdminSetUserActive: { result: AdminSetUserActiveMutation; variables: AdminSetUserActiveMutationVariables };
  AdminSetUserKycLevel: { result: AdminSetUserKycLevelMutation; variables: AdminSetUserKycLevelMutationVariables };
  AdminShopOrders: { result: AdminShopOrdersQuery; variables: AdminShopOrdersQueryVariables };
  AdminSignIn: { result: AdminSignInMutation; variables: AdminSignInMutationVariables };
  AdminSignOut: { result: AdminSignOutMutation; variables: AdminSignOutMutationVariables };
  AdminSignup: { result: AdminSignupQuery; variables: AdminSignupQueryVariables };
  AdminSimulateIncomingTransfer: { result: AdminSimulateIncomingTransferMutation; variables: AdminSimulateIncomingTransferMutationVariables };
  AdminTransfers: { result: AdminTransfersQuery; variables: AdminTransfersQueryVariables };
  AdminUpdateBranding: { result: AdminUpdateBrandingMutation; variables: AdminUpdateBrandingMutationVariables };
  AdminUpdateSettings: { result: AdminUpdateSettingsMutation; variables: AdminUpdateSettingsMutationVariables };
  AdminUpdateShopProduct: { result: AdminUpdateShopProductMutation; variables: AdminUpdateShopProductMutationVariables };
  AdminUploadLogo: { result: AdminUploadLogoMutation; variables: AdminUploadLogoMutationVariables };
  AdminUser: { result: AdminUserQuery; variables: AdminUserQueryVariables };
  AdminUserAdd: { result: AdminUserAddQuery; variables: AdminUserAddQueryVariables };
  AdminUsers: { result: AdminUsersQuery; variables: AdminUsersQueryVariables };
  AdminUtilityRequests: { result: AdminUtilityRequestsQuery; variables: AdminUtilityRequestsQueryVariables };
  AdminViewKycDocument: { result: AdminViewKycDocumentMutation; variables: AdminViewKycDocumentMutationVariables };
  AdminVirtualAccounts: { result: AdminVirtualAccountsQuery; variables: AdminVirtualAccountsQueryVariables };
  AdminVoidBankingMovement: { result: AdminVoidBankingMovementMutation; variables: AdminVoidBankingMovementMutationVariables };
  AdminVoidTransfer: { result: AdminVoidTransferMutation; variables: AdminVoidTransferMutationVariables };
  AskAssistant: { result: AskAssistantMutation; variables: AskAssistantMutationVariables };
  AssistantConfigured: { result: AssistantConfiguredQuery; variables: AssistantConfiguredQueryVariables };
  AttachKycDocument: { result: AttachKycDocumentMutation; variables: AttachKycDocumentMutationVariables };
  Balance: { result: BalanceQuery; variables: BalanceQueryVariables };
  BankingMovement: { result: BankingMovementQuery; variables: BankingMovementQueryVariables };
  BankingMovements: { result: BankingMovementsQuery; variables: BankingMovementsQueryVariables };
  CancelDispute: { result: CancelDisputeMutation; variables: CancelDisputeMutationVariables };
  CancelInvestmentOrder: { result: CancelInvestmentOrderMutation; variables: CancelInvestmentOrderMutationVariables };
  CancelShopOrder: { result: CancelShopOrderMutation; variables: CancelShopOrderMutationVariables };
  Card: { result: CardQuery; variables: CardQueryVariables };
  CardAuthorisations: { result: CardAuthorisationsQuery; variables: CardAuthorisationsQueryVariables };
  CardIssuerWebhook: { result: CardIssuerWebhookMutation; variables: CardIssuerWebhookMutationVariables };
  Cards: { result: CardsQuery; variables: CardsQueryVariables };
  ChangePassword: { result: ChangePasswordMutation; variables: ChangePasswordMutationVariables };
  ChangeShopCartItem: { result: ChangeShopCartItemMutation; variables: ChangeShopCartItemMutationVariables };
  ClaimReferral: { result: ClaimReferralMutation; variables: ClaimReferralMutationVariables };
  ConfirmPasswordReset: { result: ConfirmPasswordResetMutation; variables: ConfirmPasswordResetMutationVariables };
  ConfirmTotpEnrolment: { result: ConfirmTotpEnrolmentMutation; variables: ConfirmTotpEnrolmentMutationVariables };
  CreateCryptoDepositAddress: { result: CreateCryptoDepositAddressMutation; variables: CreateCryptoDepositAddressMutationVariables };
  CreateCryptoQuote: { result: CreateCryptoQuoteMutation; variables: CreateCryptoQuoteMutationVariables };
  CreateFxConversion: { result: CreateFxConversionMutation; variables: CreateFxConversionMutationVariables };
  CreateFxQuote: { result: CreateFxQuoteMutation; variables: CreateFxQuoteMutationVariables };
  CreateRamp: { result: CreateRampMutation; variables: CreateRampMutationVariables };
  CreateTransfer: { result: CreateTransferMutation; variables: CreateTransferMutationVariables };
  CryptoDepositAddresses: { result: CryptoDepositAddressesQuery; variables: CryptoDepositAddressesQueryVariables };
  CryptoDeposits: { result: CryptoDepositsQuery; variables: CryptoDepositsQueryVariables };
  CryptoExchangeWebhook: { result: CryptoExchangeWebhookMutation; variables: CryptoExchangeWebhookMutationVariables };
  CryptoSwaps: { result: CryptoSwapsQuery; variables: CryptoSwapsQueryVariables };
  DevOutbox: { result: DevOutboxQuery; variables: DevOutboxQueryVariables };
  DisableTotp: { result: DisableTotpMutation; variables: DisableTotpMutationVariables };
  DisputeDetail: { result: DisputeDetailQuery; variables: DisputeDetailQueryVariables };
  DisputeMessages: { result: DisputeMessagesQuery; variables: DisputeMessagesQueryVariables };
  Disputes: { result: DisputesQuery; variables: DisputesQueryVariables };
  FeatureFlags: { result: FeatureFlagsQuery; variables: FeatureFlagsQueryVariables };
  FreezeCard: { result: FreezeCardMutation; variables: FreezeCardMutationVariables };
  GiftCardBrands: { result: GiftCardBrandsQuery; variables: GiftCardBrandsQueryVariables };
  GiftCardCountries: { result: GiftCardCountriesQuery; variables: GiftCardCountriesQueryVariables };
  GiftCardOrders: { result: GiftCardOrdersQuery; variables: GiftCardOrdersQueryVariables };
  InstrumentQuote: { result: InstrumentQuoteQuery; variables: InstrumentQuoteQueryVariables };
  Instruments: { result: InstrumentsQuery; variables: InstrumentsQueryVariables };
  InvestmentOrders: { result: InvestmentOrdersQuery; variables: InvestmentOrdersQueryVariables };
  IssueCard: { result: IssueCardMutation; variables: IssueCardMutationVariables };
  KycStatus: { result: KycStatusQuery; variables: KycStatusQueryVariables };
  Login: { result: LoginMutation; variables: LoginMutationVariables };
  Logout: { result: LogoutMutation; variables: LogoutMutationVariables };
  LogoutAll: { result: LogoutAllMutation; variables: LogoutAllMutationVariables };
  NodeInfo: { result: NodeInfoQuery; variables: NodeInfoQueryVariables };
  OpenDispute: { result: OpenDisputeMutation; variables: OpenDisputeMutationVariables };
  OpenVirtualAccount: { result: OpenVirtualAccountMutation; variables: OpenVirtualAccountMutationVariables };
  OrderGiftCard: { result: OrderGiftCardMutation; variables: OrderGiftCardMutationVariables };
  PayShopOrder: { result: PayShopOrderMutation; variables: PayShopOrderMutationVariables };
  PeriodStatement: { result: PeriodStatementQuery; variables: PeriodStatementQueryVariables };
  Portfolio: { result: PortfolioQuery; variables: PortfolioQueryVariables };
  PortfolioFills: { result: PortfolioFillsQuery; variables: PortfolioFillsQueryVariables };
  PostDisputeMessage: { result: PostDisputeMessageMutation; variables: PostDisputeMessageMutationVariables };
  Profile: { result: ProfileQuery; variables: ProfileQueryVariables };
  PublicConfig: { result: PublicConfigQuery; variables: PublicConfigQueryVariables };
  PublicLogo: { result: PublicLogoQuery; variables: PublicLogoQueryVariables };
  Readiness: { result: ReadinessQuery; variables: ReadinessQueryVariables };
  ReceiveBankingWebhook: { result: ReceiveBankingWebhookMutation; variables: ReceiveBankingWebhookMutationVariables };
  ReceiveKycWebhook: { result: ReceiveKycWebhookMutation; variables: ReceiveKycWebhookMutationVariables };
  RedeemRewardPoints: { result: RedeemRewardPointsMutation; variables: RedeemRewardPointsMutationVariables };
  RemoveShopCartItem: { result: RemoveShopCartItemMutation; variables: RemoveShopCartItemMutationVariables };
  RenewRecoveryCodes: { result: RenewRecoveryCodesMutation; variables: RenewRecoveryCodesMutationVariables };
  RequestAirtime: { result: RequestAirtimeMutation; variables: RequestAirtimeMutationVariables };
  RequestBillPayment: { result: RequestBillPaymentMutation; variables: RequestBillPaymentMutationVariables };
  RequestDataBundle: { result: RequestDataBundleMutation; variables: RequestDataBundleMutationVariables };
  RequestMobileMoneyDeposit: { result: RequestMobileMoneyDepositMutation; variables: RequestMobileMoneyDepositMutationVariables };
  RequestMobileMoneyWithdrawal: { result: RequestMobileMoneyWithdrawalMutation; variables: RequestMobileMoneyWithdrawalMutationVariables };
  RequestPasswordReset: { result: RequestPasswordResetMutation; variables: RequestPasswordResetMutationVariables };
  ResendEmailVerification: { result: ResendEmailVerificationMutation; variables: ResendEmailVerificationMutationVariables };
  RevealCard: { result: RevealCardMutation; variables: RevealCardMutationVariables };
  RevokeSession: { result: RevokeSessionMutation; variables: RevokeSessionMutationVariables };
  RewardsSummary: { result: RewardsSummaryQuery; variables: RewardsSummaryQueryVariables };
  SendBankTransfer: { result: SendBankTransferMutation; variables: SendBankTransferMutationVariables };
  Sessions: { result: SessionsQuery; variables: SessionsQueryVariables };
  SetPhone: { result: SetPhoneMutation; variables: SetPhoneMutationVariables };
  ShopCart: { result: ShopCartQuery; variables: ShopCartQueryVariables };
  ShopCheckout: { result: ShopCheckoutMutation; variables: ShopCheckoutMutationVariables };
  ShopOrder: { result: ShopOrderQuery; variables: ShopOrderQueryVariables };
  ShopOrders: { result: ShopOrdersQuery; variables: ShopOrdersQueryVariables };
  ShopProduct: { result: ShopProductQuery; variables: ShopProductQueryVariables };
  ShopProducts: { result: ShopProductsQuery; variables: ShopProductsQueryVariables };
  Signup: { result: SignupMutation; variables: SignupMutationVariables };
  SimulateIncomingTransfer: { result: SimulateIncomingTransferMutation; variables: SimulateIncomingTransferMutationVariables };
  StartKycVerification: { result: StartKycVerificationMutation; variables: StartKycVerificationMutationVariables };
  StartTotpEnrolment: { result: StartTotpEnrolmentMutation; variables: StartTotpEnrolmentMutationVariables };
  SubmitInvestmentOrder: { result: SubmitInvestmentOrderMutation; variables: SubmitInvestmentOrderMutationVariables };
  SubmitKycVerification: { result: SubmitKycVerificationMutation; variables: SubmitKycVerificationMutationVariables };
  SwapCrypto: { result: SwapCryptoMutation; variables: SwapCryptoMutationVariables };
  TransactionReceipt: { result: TransactionReceiptQuery; variables: TransactionReceiptQueryVariables };
  Transactions: { result: TransactionsQuery; variables: TransactionsQueryVariables };
  TransferRecipient: { result: TransferRecipientQuery; variables: TransferRecipientQueryVariables };
  UnfreezeCard: { result: UnfreezeCardMutation; variables: UnfreezeCardMutationVariables };
  UpdateCardLimits: { result: UpdateCardLimitsMutation; variables: UpdateCardLimitsMutationVariables };
  UploadKycDocument: { result: UploadKycDocumentMutation; variables: UploadKycDocumentMutationVariables };
  UtilityCatalogue: { result: UtilityCatalogueQuery; variables: UtilityCatalogueQueryVariables };
  UtilityRequests: { result: UtilityRequestsQuery; variables: UtilityRequestsQueryVariables };
  VerifyEmail: { result: VerifyEmailMutation; variables: VerifyEmailMutationVariables };
  VerifyPhone: { result: VerifyPhoneMutation; variables: VerifyPhoneMutationVariables };
  VirtualAccounts: { result: VirtualAccountsQuery; variables: VirtualAccountsQueryVariables };
}
